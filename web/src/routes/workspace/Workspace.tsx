import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { workspacesQuery } from '../../api/workspaces.js';

/** A workspace's page; its lists and views come in the next screens. */
export function Workspace({ slug }: { slug: string }) {
  const workspaces = useQuery(workspacesQuery);
  const workspace = workspaces.data?.find((candidate) => candidate.slug === slug);
  if (workspaces.isPending) return <p className="mt-10 text-center">Loading…</p>;
  if (workspace === undefined) {
    return (
      <div className="mx-auto mt-10 max-w-2xl">
        <h1 className="mb-2 text-2xl font-semibold">Workspace not found</h1>
        <p>
          No workspace of yours has the address “{slug}”.{' '}
          <Link to="/" className="text-blue-700 underline dark:text-blue-300">
            Back to your workspaces
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto mt-10 max-w-2xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link
          to="/"
          className="rounded text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
        >
          All workspaces
        </Link>
      </nav>
      <h1 className="mb-1 text-2xl font-semibold">{workspace.name}</h1>
      <p className="mb-6 text-sm text-zinc-600 dark:text-zinc-400">
        {workspace.slug} · your role: {workspace.role}
      </p>
      <p>Lists, views and cards of this workspace will appear here.</p>
    </div>
  );
}
