import { UUID_PATTERN } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { Inventory, NodeParams } from '../nodes/schemas.js';
import { nodeInOrg } from '../nodes/service.js';
import { servicesOfOrg } from '../services/lookup.js';
import { agentCall } from './agent-call.js';
import * as repository from './repository.js';

/** A label's value that can be looked up as an id. */
const UUID = new RegExp(UUID_PATTERN);

/** The live container inventory of a node, each container matched to its worker or service. */
export function inventoryRoute(router: Router, ctx: AppContext): void {
  const { registry } = ctx.workers;

  orgRoutes(router, ctx, ['Nodes']).route({
    method: 'GET',
    url: '/orgs/:orgId/nodes/:nodeId/inventory',
    key: ['nodes:read'],
    permission: 'nodes.read',
    operationId: 'getNodeInventory',
    summary: 'Live container inventory',
    description:
      "Asks the node's agent now (503 `node_offline` when none is connected) for every container " +
      'Sparrow manages there. Each is matched to its worker or to the deployed service it runs for; ' +
      'one that neither owns is an orphan (left by a worker or service deleted while its node was ' +
      'unreachable). On a shared node, containers of ' +
      "other organizations' workers are not listed.",
    params: NodeParams,
    response: Inventory,
    errors: ['node_offline', 'agent_timeout', 'agent_error'],
    handler: async (db, access, request) => {
      const node = await nodeInOrg(db, access, request.params.nodeId);
      const peer = await registry.reach(node.id);
      const { containers } = await agentCall(() => peer.request('inventory.list', {}));
      const workers = new Map(
        (await repository.workersOnNode(db, node.id)).map((worker) => [worker.id, worker]),
      );
      const serviceIds = containers.flatMap((container) => {
        const id = container.labels['sparrow.service'];
        return id !== undefined && UUID.test(id) ? [id] : [];
      });
      const services = await servicesOfOrg(db, access.orgId, [...new Set(serviceIds)]);
      const listed = containers.flatMap((container) => {
        const worker = container.workerId === null ? undefined : workers.get(container.workerId);
        const foreign =
          container.labels['sparrow.org'] !== undefined &&
          container.labels['sparrow.org'] !== access.orgId;
        if (node.org_id === null && foreign) return [];
        const serviceId = container.labels['sparrow.service'];
        const service = serviceId === undefined ? undefined : services.get(serviceId);
        return [
          {
            ...container,
            worker:
              worker === undefined
                ? null
                : {
                    id: worker.id,
                    name: worker.name,
                    state: worker.state,
                    projectId: worker.project_id,
                  },
            service:
              service === undefined
                ? null
                : {
                    id: service.id,
                    deploymentId: service.deployment_id,
                    name: service.name,
                    state: service.state,
                  },
            orphan: worker === undefined && service === undefined,
          },
        ];
      });
      return { nodeId: node.id, readAt: new Date().toISOString(), containers: listed };
    },
  });
}
