import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { deploymentsQuery } from '../../../api/deployments.js';
import { nodesQuery } from '../../../api/nodes.js';
import { LIVE_INTERVAL } from '../../../api/orgs.js';
import { projectsQuery } from '../../../api/projects.js';
import { workersQuery } from '../../../api/workers.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { useOrg } from '../context.js';

const ROW =
  'flex items-center justify-between gap-3 rounded-md px-2 py-1.5 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800';

function Panel(props: { id: string; title: string; count?: number; children: ReactNode }) {
  return (
    <section
      aria-labelledby={props.id}
      className="flex min-w-0 flex-col gap-2 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id={props.id} className="text-lg font-semibold">
        {props.title}
        {props.count === undefined ? null : (
          <span className="ml-2 text-sm font-normal text-zinc-600 dark:text-zinc-400">
            {props.count}
          </span>
        )}
      </h2>
      {props.children}
    </section>
  );
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-zinc-600 dark:text-zinc-400">{children}</p>;
}

/**
 * An organization at a glance: its projects, every worker of them, its
 * deployments and the nodes it can use, each with its state, asked again
 * every two seconds while shown (the platform has no event stream).
 */
export function OrgOverview() {
  const org = useOrg();
  const orgId = org.id;
  // Projects have no state of their own, but one added elsewhere shows here too.
  const projects = useQuery({ ...projectsQuery(orgId), refetchInterval: LIVE_INTERVAL });
  const workerLists = useQueries({
    queries: (projects.data ?? []).map((project) => workersQuery(orgId, project.id)),
  });
  const deployments = useQuery(deploymentsQuery(orgId));
  const nodes = useQuery(nodesQuery(orgId));
  const projectName = new Map(projects.data?.map((project) => [project.id, project.name]));
  const workers = workerLists.flatMap((list) => list.data ?? []);
  const failure = projects.error ?? deployments.error ?? nodes.error;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <h1 className="text-2xl font-semibold">{org.name}</h1>
      {failure === null ? null : <p role="alert">{failure.message}</p>}
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel id="overview-projects" title="Projects" count={projects.data?.length}>
          {projects.data?.length === 0 ? <Empty>No project yet.</Empty> : null}
          <ul>
            {projects.data?.map((project) => (
              <li key={project.id}>
                <Link
                  to="/orgs/$orgId/projects/$projectId"
                  params={{ orgId, projectId: project.id }}
                  className={ROW}
                >
                  <span className="truncate font-medium">{project.name}</span>
                  <span className="text-sm text-zinc-600 dark:text-zinc-400">
                    {workers.filter((worker) => worker.projectId === project.id).length} workers
                  </span>
                </Link>
              </li>
            ))}
          </ul>
          <Link
            to="/orgs/$orgId/projects"
            params={{ orgId }}
            className="self-start text-sm text-blue-700 underline dark:text-blue-300"
          >
            All projects
          </Link>
        </Panel>
        <Panel id="overview-workers" title="Workers" count={workers.length}>
          {workers.length === 0 ? <Empty>No worker runs: spawn one from a project.</Empty> : null}
          <ul>
            {workers.map((worker) => (
              <li key={worker.id}>
                <Link
                  to="/orgs/$orgId/projects/$projectId/workers/$workerId"
                  params={{ orgId, projectId: worker.projectId, workerId: worker.id }}
                  className={ROW}
                >
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{worker.name}</span>{' '}
                    <span className="text-sm text-zinc-600 dark:text-zinc-400">
                      {projectName.get(worker.projectId)}
                      {worker.branch ? ` · ${worker.branch}` : ''}
                    </span>
                  </span>
                  <StateBadge state={worker.state} reason={worker.stateReason} />
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel id="overview-deployments" title="Deployments" count={deployments.data?.length}>
          {deployments.data?.length === 0 ? <Empty>No deployment yet.</Empty> : null}
          <ul>
            {deployments.data?.map((deployment) => (
              <li key={deployment.id}>
                <Link
                  to="/orgs/$orgId/deployments/$deploymentId"
                  params={{ orgId, deploymentId: deployment.id }}
                  className={ROW}
                >
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{deployment.name}</span>{' '}
                    <span className="text-sm text-zinc-600 dark:text-zinc-400">
                      {deployment.serviceCount} services
                    </span>
                  </span>
                  <StateBadge state={deployment.state} />
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel id="overview-nodes" title="Nodes" count={nodes.data?.length}>
          {nodes.data?.length === 0 ? <Empty>No node: register one to run workers.</Empty> : null}
          <ul>
            {nodes.data?.map((node) => (
              <li key={node.id}>
                <Link
                  to="/orgs/$orgId/nodes/$nodeId"
                  params={{ orgId, nodeId: node.id }}
                  className={ROW}
                >
                  <span className="min-w-0 truncate">
                    <span className="font-medium">{node.name}</span>
                    {node.shared ? (
                      <span className="text-sm text-zinc-600 dark:text-zinc-400"> · shared</span>
                    ) : null}
                  </span>
                  <StateBadge state={node.status} />
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
      </div>
    </div>
  );
}
