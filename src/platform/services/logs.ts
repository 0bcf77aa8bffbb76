import type { Database } from '../../db/schema.js';
import type { OrgAccess } from '../access/org-access.js';
import type { AgentRegistry } from '../nodes/registry.js';
import { fromAgentError } from '../workers/agent-call.js';
import { serviceInDeployment } from './lookup.js';
import { prefixLines, replicaLabel } from './replica-lines.js';
import { liveReplicas } from './replicas.js';

function reasonOf(error: unknown): string {
  const failure = fromAgentError(error);
  return failure instanceof Error ? failure.message : String(failure);
}

/**
 * The logs of every live replica of a service (starting, active or
 * draining), replica after replica (oldest first), each line prefixed with
 * `[r{n} {id}] `; `tail` keeps the last lines of each replica. A replica
 * whose node or container cannot be read says so in one line of its own.
 */
export async function serviceLogs(
  db: Database,
  registry: AgentRegistry,
  access: OrgAccess,
  where: { deploymentId: string; serviceId: string },
  tail: number | undefined,
): Promise<string> {
  await serviceInDeployment(db, access, where.deploymentId, where.serviceId);
  const replicas = await liveReplicas(db, where.serviceId);
  const texts = await Promise.all(
    replicas.map(async (replica, index) => {
      const label = replicaLabel(replica, index);
      try {
        const peer = await registry.reach(replica.node_id);
        const { text } = await peer.request('container.logs', {
          containerId: replica.container_name,
          ...(tail === undefined ? {} : { tail }),
        });
        return prefixLines(label, text);
      } catch (error) {
        return prefixLines(label, `-- logs unavailable: ${reasonOf(error)}`);
      }
    }),
  );
  return texts.join('');
}
