import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { webhooksQuery } from '../../../../api/webhooks.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { CreateWebhookForm } from './CreateWebhookForm.js';
import { EndpointState } from './EndpointState.js';

/** The workspace's webhook endpoints, each a link to its deliveries; admins add them. */
export function WebhooksSettings() {
  const workspace = useWorkspace();
  if (!roleAtLeast(workspace.role, 'admin')) {
    return (
      <section aria-labelledby="webhooks-title" className="flex flex-col gap-3">
        <h2 id="webhooks-title" className="text-xl font-semibold">
          Webhooks
        </h2>
        <p className="text-zinc-700 dark:text-zinc-300">
          Only admins and owners can see and manage webhooks; your role is {workspace.role}.
        </p>
      </section>
    );
  }
  return <Endpoints />;
}

function Endpoints() {
  const workspace = useWorkspace();
  const endpoints = useQuery(webhooksQuery(workspace.id));
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="webhooks-title" className="flex flex-col gap-3">
        <h2 id="webhooks-title" className="text-xl font-semibold">
          Webhooks
        </h2>
        {endpoints.isPending ? <p>Loading…</p> : null}
        {endpoints.isError ? <p role="alert">{endpoints.error.message}</p> : null}
        {endpoints.data?.length === 0 ? (
          <p className="text-zinc-700 dark:text-zinc-300">No endpoint yet.</p>
        ) : null}
        <ul className="flex flex-col gap-2 empty:hidden">
          {endpoints.data?.map((endpoint) => (
            <li key={endpoint.id}>
              <Link
                to="/$workspaceSlug/settings/webhooks/$endpointId"
                params={{ workspaceSlug: workspace.slug, endpointId: endpoint.id }}
                className="flex flex-col gap-1 rounded-lg border border-zinc-200 bg-white px-4 py-3 hover:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-all">{endpoint.url}</span>
                  <EndpointState endpoint={endpoint} />
                </span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {endpoint.eventTypes.join(', ')}
                  {endpoint.description ? ` · ${endpoint.description}` : ''}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <CreateWebhookForm workspaceId={workspace.id} />
    </div>
  );
}
