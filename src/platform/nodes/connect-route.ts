import type { FastifyRequest } from 'fastify';
import Type from 'typebox';
import { AgentPeer } from '../../agent/peer.js';
import { CloseCodes } from '../../agent/protocol/messages.js';
import { unauthorized } from '../../http/errors.js';
import { hashToken } from '../../lib/tokens.js';
import type { AppContext, Router } from '../../module.js';
import { socketRoutes } from '../access/socket-route.js';
import * as repository from './repository.js';

/** How often connected nodes' `last_seen_at` is refreshed. */
const TOUCH_INTERVAL_MS = 30_000;

/**
 * The node token of a handshake: `Authorization: Bearer <token>` (what the
 * agent sends, kept out of URLs and so out of logs), else the `token` query
 * parameter the spec names (older agents; redacted from the log).
 */
function nodeTokenOf(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header !== undefined) return /^Bearer[ ]+(\S+)[ ]*$/i.exec(header)?.[1] ?? '';
  return new URL(request.url, 'http://localhost').searchParams.get('token') ?? '';
}

/**
 * The internal endpoint agents dial: `GET /api/agent/connect` with
 * `Authorization: Bearer <node token>`, or `?token=<node token>`.
 * An unknown token is refused with 401 before the upgrade (the agent stops
 * retrying). After the agent's hello the node is marked connected; closing
 * marks it disconnected.
 */
export function agentConnectRoute(router: Router, ctx: AppContext): void {
  const registry = ctx.agents;
  const timer = setInterval(() => {
    repository
      .touch(ctx.db, registry.connectedNodeIds(), registry.processId)
      .catch((error: unknown) => {
        ctx.log.warn({ err: error }, 'could not refresh node heartbeats');
      });
  }, TOUCH_INTERVAL_MS);
  timer.unref();
  router.addHook('onClose', async () => {
    clearInterval(timer);
    registry.closeAll();
  });

  socketRoutes(router, ctx, ['Nodes']).credential({
    url: '/agent/connect',
    credential: 'node token',
    // Before the query is read: a caller without a node token learns nothing more.
    stage: 'preValidation',
    hidden: true,
    operationId: 'connectAgent',
    summary:
      "A node agent's link (WebSocket), authenticated by the node token (`Authorization: Bearer`, or `?token=`)",
    querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 512 })) }),
    errors: ['invalid_node_token', 'upgrade_required'],
    authenticate: async (request) => {
      const token = nodeTokenOf(request);
      const node =
        token === '' ? undefined : await repository.findNodeByTokenHash(ctx.db, hashToken(token));
      if (node === undefined) {
        throw unauthorized('invalid_node_token', 'The node token is unknown or was rotated');
      }
      return node.id;
    },
    connect: (socket, nodeId, request) => {
      const log = request.log.child({ nodeId });
      const peer = new AgentPeer(socket, {
        nodeId,
        log: (level, message) => log[level](message),
      });
      peer.hello
        .then(async (hello) => {
          await repository.markConnected(ctx.db, nodeId, hello.node, registry.processId);
          // The token may have been rotated, or the node deleted, while the hello was on its way.
          const node = await repository.findNodeById(ctx.db, nodeId);
          if (node === undefined || peer.connected === false) {
            peer.close(CloseCodes.unauthorized, 'node deleted');
            return;
          }
          registry.add(nodeId, peer, hello);
          log.info({ agentVersion: hello.node.agentVersion }, 'agent connected');
        })
        .catch((error: unknown) => {
          // No hello (the link closed first), or the database failed: the agent dials again.
          if (peer.connected) {
            log.warn({ err: error }, 'could not record the agent; closing its link');
            peer.close(1011, 'could not record the connection');
          }
        });
      peer.on('close', (code: number) => {
        log.info({ code }, 'agent disconnected');
        if (registry.get(nodeId) === undefined) {
          repository.markDisconnected(ctx.db, nodeId, registry.processId).catch(() => {});
        }
      });
    },
  });
}
