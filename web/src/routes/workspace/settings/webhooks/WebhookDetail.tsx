import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { formatMoment } from '../../../../api/events.js';
import { webhookQuery } from '../../../../api/webhooks.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { Deliveries } from './Deliveries.js';
import { EndpointActions } from './EndpointActions.js';
import { EndpointState } from './EndpointState.js';

/** One endpoint: its settings and state, its actions, and its deliveries with their attempts. */
export function WebhookDetail() {
  const workspace = useWorkspace();
  const { endpointId } = useParams({
    from: '/signed-in/$workspaceSlug/settings/webhooks/$endpointId',
  });
  const endpoint = useQuery({
    ...webhookQuery(workspace.id, endpointId),
    enabled: roleAtLeast(workspace.role, 'admin'),
  });
  const back = (
    <Link
      to="/$workspaceSlug/settings/webhooks"
      params={{ workspaceSlug: workspace.slug }}
      className="text-sm text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
    >
      ← All endpoints
    </Link>
  );
  if (!roleAtLeast(workspace.role, 'admin')) {
    return (
      <div className="flex flex-col gap-3">
        {back}
        <p className="text-zinc-700 dark:text-zinc-300">
          Only admins and owners can see webhooks; your role is {workspace.role}.
        </p>
      </div>
    );
  }
  if (endpoint.isPending) return <p>Loading…</p>;
  if (endpoint.isError) {
    return (
      <div className="flex flex-col gap-3">
        {back}
        <p role="alert">{endpoint.error.message}</p>
      </div>
    );
  }
  const data = endpoint.data;
  return (
    <div className="flex flex-col gap-6">
      {back}
      <section aria-labelledby="endpoint-title" className="flex flex-col gap-3">
        <h2 id="endpoint-title" className="flex flex-wrap items-center gap-2 text-xl font-semibold">
          <span className="break-all">{data.url}</span>
          <EndpointState endpoint={data} />
        </h2>
        <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-zinc-600 dark:text-zinc-400">Event types</dt>
          <dd>{data.eventTypes.join(', ')}</dd>
          {data.description ? (
            <>
              <dt className="text-zinc-600 dark:text-zinc-400">Description</dt>
              <dd>{data.description}</dd>
            </>
          ) : null}
          <dt className="text-zinc-600 dark:text-zinc-400">Secret</dt>
          <dd>
            <code>{data.secretPrefix}…</code>
            {data.previousSecretExpiresAt === null
              ? ''
              : ` (the previous one signs too until ${formatMoment(data.previousSecretExpiresAt)})`}
          </dd>
          <dt className="text-zinc-600 dark:text-zinc-400">Failures in a row</dt>
          <dd>{data.consecutiveFailures}</dd>
        </dl>
        <EndpointActions
          workspaceId={workspace.id}
          workspaceSlug={workspace.slug}
          endpoint={data}
        />
      </section>
      <Deliveries workspaceId={workspace.id} endpointId={data.id} canManage />
    </div>
  );
}
