import { timingSafeEqual } from 'node:crypto';
import Type from 'typebox';
import { unauthorized } from '../../http/errors.js';
import type { AppContext, Router } from '../../module.js';
import { socketRoutes } from '../access/socket-route.js';
import { nodeOffline } from '../nodes/registry.js';
import { bridgeRelay } from './bridge.js';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * `GET /api/tunnel/relay?nodeId=`: another server process reaches the agent
 * this process holds. Authenticated by the cluster's infrastructure secret
 * (`Authorization: Relay <secret>`), never by a user credential; 503
 * `node_offline` when this process does not hold the node's agent (any more).
 */
export function relayRoute(router: Router, ctx: AppContext, secret: () => Promise<string>): void {
  const registry = ctx.agents;
  socketRoutes(router, ctx, ['Nodes']).credential({
    url: '/tunnel/relay',
    credential: 'relay secret',
    // Before the query is read: a caller without the secret learns nothing more.
    stage: 'preValidation',
    hidden: true,
    operationId: 'relayAgent',
    summary: "Another server process's link to an agent this one holds (WebSocket)",
    querystring: Type.Object({ nodeId: Type.String({ format: 'uuid' }) }),
    errors: ['invalid_token', 'node_offline', 'upgrade_required'],
    authenticate: async (request) => {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Relay ') ? header.slice('Relay '.length) : '';
      if (given === '' || !sameSecret(given, await secret())) {
        throw unauthorized('invalid_token', 'The relay credential is missing or wrong');
      }
      const nodeId = new URL(request.url, 'http://localhost').searchParams.get('nodeId') ?? '';
      const agent = registry.get(nodeId);
      if (agent === undefined) throw nodeOffline(nodeId);
      return agent;
    },
    connect: (socket, agent) => {
      if (!agent.peer.connected) {
        socket.close(1012, 'the agent disconnected');
        return;
      }
      bridgeRelay(socket, agent);
    },
  });
}
