import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ApiError } from '../../../api/client.js';
import { projectsQuery } from '../../../api/projects.js';
import { meQuery } from '../../../api/session.js';
import { type WorkerRef, workerQuery } from '../../../api/workers.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { orgRoleAtLeast, useOrg } from '../context.js';
import { ProjectWorkers } from './ProjectWorkers.js';
import { WorkerActions } from './WorkerActions.js';
import { WorkerFacts } from './WorkerFacts.js';
import { WorkerInside } from './WorkerInside.js';

const LINK = 'text-blue-700 underline dark:text-blue-300';

/**
 * A worker: its state (asked again every two seconds), facts and moves,
 * then what runs inside it, for those who may act on it, and the project's
 * other workers.
 */
export function WorkerPage() {
  const ref: WorkerRef = useParams({
    from: '/signed-in/orgs/$orgId/projects/$projectId/workers/$workerId',
  });
  const { orgId, projectId, workerId } = ref;
  const worker = useQuery(workerQuery(ref));
  const projects = useQuery(projectsQuery(orgId));
  const org = useOrg();
  const me = useQuery(meQuery);
  const project = projects.data?.find((candidate) => candidate.id === projectId);
  const projectLink = (
    <Link to="/orgs/$orgId/projects/$projectId" params={{ orgId, projectId }} className={LINK}>
      {project?.name ?? 'The project'}
    </Link>
  );

  if (worker.error instanceof ApiError && worker.error.status === 404) {
    return (
      <div className="mx-auto flex max-w-5xl flex-col gap-4">
        <h1 className="text-2xl font-semibold">Worker not found</h1>
        <p>It was deleted, or the address is wrong. {projectLink} lists its workers.</p>
      </div>
    );
  }
  const data = worker.data;
  // The person who spawned it, or an owner or admin (the API refuses the others `insufficient_role`).
  const mayAct =
    data !== undefined && (orgRoleAtLeast(org.role, 'admin') || data.userId === me.data?.id);
  const running = data?.state === 'ready';
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <header className="flex flex-col gap-2">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Worker of {projectLink}</p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold">{data?.name ?? 'Worker'}</h1>
          {data === undefined ? null : (
            <span role="status" aria-label={`State: ${data.state}`}>
              <StateBadge state={data.state} reason={data.stateReason} />
            </span>
          )}
        </div>
        {data?.stateReason ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{data.stateReason}</p>
        ) : null}
        {worker.error === null ? null : <p role="alert">{worker.error.message}</p>}
      </header>
      {data === undefined ? null : (
        <>
          {mayAct ? (
            <WorkerActions worker={data} />
          ) : (
            <p className="text-sm text-zinc-700 dark:text-zinc-300">
              Only the person who spawned this worker, or an owner or admin, can start, stop or
              delete it, look inside it or open its terminal.
            </p>
          )}
          <WorkerFacts worker={data} />
          {mayAct ? <WorkerInside workerRef={ref} running={running} /> : null}
        </>
      )}
      <ProjectWorkers orgId={orgId} projectId={projectId} currentWorkerId={workerId} />
    </div>
  );
}
