import { requirePrincipal } from '../../http/auth.js';
import type { AppContext, Router } from '../../module.js';
import { requireAccess } from '../access/org-access.js';
import { Inventory, NodeParams } from '../nodes/schemas.js';
import { nodeInOrg } from '../nodes/service.js';
import * as orgs from '../orgs/service.js';
import { agentCall } from './agent-call.js';
import { workerLifecycle } from './lifecycle.js';
import * as repository from './repository.js';

/** The live container inventory of a node, each container matched to its worker. */
export function inventoryRoute(router: Router, ctx: AppContext): void {
  const { registry } = workerLifecycle(ctx);

  router.get('/orgs/:orgId/nodes/:nodeId/inventory', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['Nodes'],
      operationId: 'getNodeInventory',
      summary: 'Live container inventory',
      description:
        "Asks the node's agent now (503 `node_offline` when none is connected) for every container " +
        'Sparrow manages there. Each is matched to its worker; one that no worker owns is an orphan ' +
        '(left by a worker deleted while its node was unreachable). On a shared node, containers of ' +
        "other organizations' workers are not listed.",
      params: NodeParams,
      response: { 200: Inventory },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      requireAccess(access, 'nodes:read');
      const node = await nodeInOrg(ctx.db, access, request.params.nodeId);
      const peer = registry.peer(node.id);
      const { containers } = await agentCall(() => peer.request('inventory.list', {}));
      const workers = new Map(
        (await repository.workersOnNode(ctx.db, node.id)).map((worker) => [worker.id, worker]),
      );
      const listed = containers.flatMap((container) => {
        const worker = container.workerId === null ? undefined : workers.get(container.workerId);
        const foreign =
          container.labels['sparrow.org'] !== undefined &&
          container.labels['sparrow.org'] !== access.orgId;
        if (node.org_id === null && foreign) return [];
        return [
          {
            ...container,
            worker:
              worker === undefined
                ? null
                : { id: worker.id, state: worker.state, projectId: worker.project_id },
            orphan: worker === undefined,
          },
        ];
      });
      return { nodeId: node.id, readAt: new Date().toISOString(), containers: listed };
    },
  });
}
