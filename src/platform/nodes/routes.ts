import Type from 'typebox';
import { requirePrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { OrgParams } from '../orgs/schemas.js';
import * as orgs from '../orgs/service.js';
import { agentRegistry } from './registry.js';
import { DrainBody, Node, NodeParams, NodeWithToken, RegisterNodeBody } from './schemas.js';
import * as service from './service.js';

const tags = ['Nodes'];

export function nodeRoutes(router: Router, ctx: AppContext): void {
  const registry = agentRegistry(ctx);

  router.get('/orgs/:orgId/nodes', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listNodes',
      summary: 'List nodes',
      description:
        "The organization's nodes and the shared built-in node (when the server runs one), by name.",
      params: OrgParams,
      response: { 200: Type.Array(Node) },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return service.listNodes(ctx.db, access);
    },
  });

  router.post('/orgs/:orgId/nodes', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'registerNode',
      summary: 'Register a node',
      description:
        'Owner or admin. Answers the node token once (it is stored as a hash) and the command that ' +
        'connects an agent with it: `sparrow agent --server URL --token TOKEN`. Names are unique in ' +
        'the organization whatever their case (409 `node_name_taken`).',
      params: OrgParams,
      body: RegisterNodeBody,
      response: { 201: NodeWithToken },
    },
    handler: async (request, reply) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      const created = await service.registerNode(ctx.db, ctx.config, access, request.body);
      return reply.code(201).send(created);
    },
  });

  router.get('/orgs/:orgId/nodes/:nodeId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getNode',
      summary: 'Get a node',
      description:
        'Its status (online, offline or draining), last contact, capacity and agent version.',
      params: NodeParams,
      response: { 200: Node },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return service.getNode(ctx.db, access, request.params.nodeId);
    },
  });

  router.delete('/orgs/:orgId/nodes/:nodeId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteNode',
      summary: 'Delete a node',
      description:
        'Owner or admin. Refused while workers live on it (409 `node_has_workers`). Its token stops ' +
        'working and a connected agent is disconnected (and stops: the token is refused).',
      params: NodeParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      await service.deleteNode(ctx.db, access, request.params.nodeId);
      registry.disconnect(request.params.nodeId, undefined, 'node deleted');
      return reply.code(204).send(null);
    },
  });

  router.post('/orgs/:orgId/nodes/:nodeId/token', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'rotateNodeToken',
      summary: 'Rotate the node token',
      description:
        'Owner or admin. Answers a new token once; the old one stops working at once, and an agent ' +
        'connected with it is disconnected. Restart the agent with the new token.',
      params: NodeParams,
      response: { 200: NodeWithToken },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      const rotated = await service.rotateToken(ctx.db, ctx.config, access, request.params.nodeId);
      registry.disconnect(request.params.nodeId);
      return rotated;
    },
  });

  router.post('/orgs/:orgId/nodes/:nodeId/drain', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'drainNode',
      summary: 'Drain a node',
      description:
        'Owner or admin. No new workers are placed on a draining node; those running keep running ' +
        'and can be stopped, started and deleted. Send `{"draining": false}` to undo. Idempotent.',
      params: NodeParams,
      body: Type.Optional(DrainBody),
      response: { 200: Node },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      const draining = request.body?.draining ?? true;
      return service.drainNode(ctx.db, access, request.params.nodeId, draining);
    },
  });
}
