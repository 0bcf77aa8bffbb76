import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { DrainBody, Node, NodeWithToken, RegisterNodeBody } from './schemas.js';
import * as service from './service.js';

export function nodeRoutes(router: Router, ctx: AppContext): void {
  const registry = ctx.agents;
  const { route } = orgRoutes(router, ctx, ['Nodes']);
  // The node services write on the pool themselves; the agent link is told after.
  const manage = { key: ['nodes:write'], permission: 'nodes.manage', transaction: false } as const;

  route({
    method: 'GET',
    url: '/orgs/:orgId/nodes',
    key: ['nodes:read'],
    permission: 'nodes.read',
    operationId: 'listNodes',
    summary: 'List nodes',
    description:
      "The organization's nodes and the shared built-in node (when the server runs one), by name.",
    response: Type.Array(Node),
    handler: (db, access) => service.listNodes(db, access),
  });

  route({
    ...manage,
    method: 'POST',
    url: '/orgs/:orgId/nodes',
    operationId: 'registerNode',
    summary: 'Register a node',
    description:
      'Answers the node token once (it is stored as a hash) and the command that ' +
      'connects an agent with it: `sparrow agent --server URL --token TOKEN`. Names are unique in ' +
      'the organization whatever their case.',
    body: RegisterNodeBody,
    response: NodeWithToken,
    status: 201,
    errors: ['node_name_taken'],
    handler: (db, access, request) => service.registerNode(db, ctx.config, access, request.body),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/nodes/:nodeId',
    key: ['nodes:read'],
    permission: 'nodes.read',
    operationId: 'getNode',
    summary: 'Get a node',
    description:
      'Its status (online, offline or draining), last contact, capacity and agent version.',
    response: Node,
    handler: (db, access, request) => service.getNode(db, access, request.params.nodeId),
  });

  route({
    ...manage,
    method: 'DELETE',
    url: '/orgs/:orgId/nodes/:nodeId',
    operationId: 'deleteNode',
    summary: 'Delete a node',
    description:
      'Refused while workers live on it. Its token stops ' +
      'working and a connected agent is disconnected (and stops: the token is refused).',
    response: NoContent,
    errors: ['node_has_workers', 'node_shared'],
    handler: async (db, access, request) => {
      await service.deleteNode(db, access, request.params.nodeId);
      registry.disconnect(request.params.nodeId, undefined, 'node deleted');
    },
  });

  route({
    ...manage,
    method: 'POST',
    url: '/orgs/:orgId/nodes/:nodeId/token',
    operationId: 'rotateNodeToken',
    summary: 'Rotate the node token',
    description:
      'Answers a new token once; the old one stops working at once, and an agent ' +
      'connected with it is disconnected. Restart the agent with the new token.',
    response: NodeWithToken,
    errors: ['node_shared'],
    handler: async (db, access, request) => {
      const rotated = await service.rotateToken(db, ctx.config, access, request.params.nodeId);
      registry.disconnect(request.params.nodeId);
      return rotated;
    },
  });

  route({
    ...manage,
    method: 'POST',
    url: '/orgs/:orgId/nodes/:nodeId/drain',
    operationId: 'drainNode',
    summary: 'Drain a node',
    description:
      'No new workers are placed on a draining node; those running keep running ' +
      'and can be stopped, started and deleted. Send `{"draining": false}` to undo. Idempotent.',
    body: Type.Optional(DrainBody),
    response: Node,
    errors: ['node_shared'],
    handler: (db, access, request) =>
      service.drainNode(db, access, request.params.nodeId, request.body?.draining ?? true),
  });
}
