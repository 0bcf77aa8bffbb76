import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { workspacesQuery } from '../../api/workspaces.js';
import { CreateOrgForm } from './CreateOrgForm.js';
import { CreateWorkspaceForm } from './CreateWorkspaceForm.js';
import { Organizations } from './Organizations.js';

/**
 * The home page: the caller's workspaces and organizations, each a link into
 * it, and the forms that create one.
 */
export function Workspaces() {
  const workspaces = useQuery(workspacesQuery);
  return (
    <div className="mx-auto mt-10 flex max-w-2xl flex-col gap-8">
      <section aria-labelledby="workspaces-title">
        <h1 id="workspaces-title" className="mb-3 text-2xl font-semibold">
          Workspaces
        </h1>
        {workspaces.isPending ? <p>Loading…</p> : null}
        {workspaces.isError ? <p role="alert">{workspaces.error.message}</p> : null}
        {workspaces.data?.length === 0 ? (
          <p className="text-zinc-700 dark:text-zinc-300">No workspace yet: create one below.</p>
        ) : null}
        <ul className="flex flex-col gap-2">
          {workspaces.data?.map((workspace) => (
            <li key={workspace.id}>
              <Link
                to="/$workspaceSlug"
                params={{ workspaceSlug: workspace.slug }}
                className="flex items-center justify-between rounded-lg border border-zinc-200 bg-white px-4 py-3 hover:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <span className="font-medium">{workspace.name}</span>
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {workspace.slug} · {workspace.role}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <CreateWorkspaceForm />
      <Organizations />
      <CreateOrgForm />
    </div>
  );
}
