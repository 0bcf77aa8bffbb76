import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { nodesQuery } from '../../../api/nodes.js';
import { workersQuery } from '../../../api/workers.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { SpawnWorkerForm } from './SpawnWorkerForm.js';

const ROW =
  'flex items-center justify-between gap-3 rounded-md px-2 py-1.5 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800';

/**
 * A project's workers with their states, asked again every two seconds
 * while shown, each a link to its page, and the form that spawns one.
 * `currentWorkerId`: the worker whose page this is on (marked, not linked).
 */
export function ProjectWorkers({
  orgId,
  projectId,
  currentWorkerId,
}: {
  orgId: string;
  projectId: string;
  currentWorkerId?: string;
}) {
  const workers = useQuery(workersQuery(orgId, projectId));
  const nodes = useQuery(nodesQuery(orgId));
  const nodeName = new Map(nodes.data?.map((node) => [node.id, node.name]));
  return (
    <section
      aria-labelledby="project-workers"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="project-workers" className="text-lg font-semibold">
        Workers
        {workers.data === undefined ? null : (
          <span className="ml-2 text-sm font-normal text-zinc-600 dark:text-zinc-400">
            {workers.data.length}
          </span>
        )}
      </h2>
      {workers.error === null ? null : <p role="alert">{workers.error.message}</p>}
      {workers.data?.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No worker yet: spawn one below.</p>
      ) : null}
      <ul aria-label="Workers of the project">
        {workers.data?.map((worker) => (
          <li key={worker.id}>
            <Link
              to="/orgs/$orgId/projects/$projectId/workers/$workerId"
              params={{ orgId, projectId, workerId: worker.id }}
              aria-current={worker.id === currentWorkerId ? 'page' : undefined}
              className={`${ROW} aria-[current=page]:bg-zinc-100 dark:aria-[current=page]:bg-zinc-800`}
            >
              <span className="min-w-0 truncate">
                <span className="font-medium">{worker.name}</span>{' '}
                <span className="text-sm text-zinc-600 dark:text-zinc-400">
                  {worker.branch ?? 'default branch'} · {nodeName.get(worker.nodeId) ?? 'a node'}
                </span>
              </span>
              <StateBadge state={worker.state} reason={worker.stateReason} />
            </Link>
          </li>
        ))}
      </ul>
      <SpawnWorkerForm orgId={orgId} projectId={projectId} nodes={nodes.data ?? []} />
    </section>
  );
}
