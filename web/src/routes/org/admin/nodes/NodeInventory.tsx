import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ApiError } from '../../../../api/client.js';
import { formatMoment } from '../../../../api/events.js';
import { type NodeContainer, nodeInventoryQuery } from '../../../../api/nodes.js';
import { StateBadge } from '../../../../components/StateBadge.js';

const LINK = 'text-blue-700 underline dark:text-blue-300';

/** The containers the node's agent reports, asked again every two seconds. */
export function NodeInventory({ orgId, nodeId }: { orgId: string; nodeId: string }) {
  const inventory = useQuery(nodeInventoryQuery(orgId, nodeId));
  const offline = inventory.error instanceof ApiError && inventory.error.code === 'node_offline';
  return (
    <section
      aria-labelledby="inventory-title"
      className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="inventory-title" className="text-lg font-semibold">
        Containers
      </h2>
      {inventory.isPending ? <p>Asking the agent…</p> : null}
      {offline ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          No agent is connected, so its containers cannot be listed now.
        </p>
      ) : null}
      {inventory.isError && !offline ? <p role="alert">{inventory.error.message}</p> : null}
      {inventory.data ? (
        <>
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Read {formatMoment(inventory.data.readAt)}
          </p>
          {inventory.data.containers.length === 0 ? (
            <p className="text-sm text-zinc-700 dark:text-zinc-300">No container here.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Containers on the node</caption>
              <thead className="text-zinc-600 dark:text-zinc-400">
                <tr>
                  <th scope="col" className="py-2 font-medium">
                    Container
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    State
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Image
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Belongs to
                  </th>
                </tr>
              </thead>
              <tbody>
                {inventory.data.containers.map((container) => (
                  <tr key={container.id} className="border-t border-zinc-200 dark:border-zinc-700">
                    <td className="py-2 pr-3 font-mono text-xs break-all">{container.name}</td>
                    <td className="py-2 pr-3">
                      <StateBadge state={container.state} reason={container.status} />
                    </td>
                    <td className="py-2 pr-3 text-xs break-all">{container.image}</td>
                    <td className="py-2 text-xs">
                      <Owner orgId={orgId} container={container} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </section>
  );
}

/** The worker or service a container belongs to, as a link to its page; else what it is. */
function Owner({ orgId, container }: { orgId: string; container: NodeContainer }) {
  const { worker, service } = container;
  if (worker !== null) {
    return (
      <Link
        to="/orgs/$orgId/projects/$projectId/workers/$workerId"
        params={{ orgId, projectId: worker.projectId, workerId: worker.id }}
        className={LINK}
      >
        {`Worker ${worker.name} (${worker.state})`}
      </Link>
    );
  }
  if (service !== null) {
    return (
      <Link
        to="/orgs/$orgId/deployments/$deploymentId/services/$serviceId"
        params={{ orgId, deploymentId: service.deploymentId, serviceId: service.id }}
        className={LINK}
      >
        {`Service ${service.name} (${service.state})`}
      </Link>
    );
  }
  return 'Orphan (no worker or service owns it)';
}
