import Type from 'typebox';
import { Strict, Uuid } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { socketRoutes } from '../access/socket-route.js';
import { followService } from './follow.js';
import { serviceLogs } from './logs.js';
import { serviceById } from './lookup.js';
import { ServiceParams } from './schemas.js';
import { openShell, shellTarget } from './shell.js';

const Tail = Type.Integer({
  minimum: 0,
  maximum: 100_000,
  description: 'The last lines of each replica; omitted: all.',
});

const LogsQuery = Strict({ tail: Type.Optional(Tail) });
const FollowQuery = Strict({ tail: Type.Optional(Tail) });
const ShellQuery = Strict({
  replica: Type.Optional(
    Type.String({
      pattern: '^(?:[0-9a-fA-F]{6}|[0-9a-fA-F-]{36})$',
      description:
        'The replica: its id, or the six hex digits of its log prefix; omitted: the first active one.',
    }),
  ),
  cols: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

const REPLICAS =
  "Each line is prefixed with its replica, `[r{n} {id}] `: `n` its place among the service's live " +
  'replicas (starting, active or draining; oldest first, from 1), `id` the last six hex digits of ' +
  'its id.';

const HANDSHAKE =
  'A WebSocket upgrade, authenticated like any call before it (an unknown service, or another ' +
  "organization's, is 404; a handshake authenticated by the `session` cookie is 403 " +
  '`origin_not_allowed` unless its `Origin` is the origin of `PUBLIC_URL` or absent). Frames are ' +
  'JSON text.';

/** A service's logs (text and followed) and its shell. */
export function serviceLogRoutes(router: Router, ctx: AppContext): void {
  const registry = ctx.agents;
  const { route } = orgRoutes(router, ctx, ['Deployments']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId/logs',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'getServiceLogs',
    summary: 'Service logs',
    description:
      'The output of every live replica (its main process, stdout and stderr interleaved), as ' +
      `text/plain, replica after replica. ${REPLICAS} \`tail\` keeps the last lines of each ` +
      'replica. A replica whose node or container cannot be read gives one line ' +
      '`[r{n} {id}] -- logs unavailable: ...`. No replica: an empty body. Follow them live over ' +
      '`GET /api/services/{serviceId}/terminal`.',
    params: ServiceParams,
    querystring: LogsQuery,
    produces: ['text/plain'],
    response: Type.String({ description: 'text/plain' }),
    handler: async (db, access, request, reply) => {
      const text = await serviceLogs(db, registry, access, request.params, request.query.tail);
      reply.type('text/plain; charset=utf-8');
      return text;
    },
  });

  const { member } = socketRoutes(router, ctx, ['Deployments']);

  member({
    url: '/services/:serviceId/terminal',
    key: ['deployments:read'],
    permission: 'deployments.read',
    resource: 'Service',
    operationId: 'followServiceLogs',
    summary: "Follow a service's logs (WebSocket)",
    description:
      `${HANDSHAKE} The server sends \`{"type":"ready","mode":"logs","replicas":[...]}\` naming the ` +
      'replicas followed, then `{"type":"output","data":base64,"stream":"stdout"|"stderr",' +
      `"replica":"r1 abc123"}\` frames: \`tail\` last lines of each replica first, then what they ` +
      `write. ${REPLICAS} Replicas started later (by a deploy) are followed as they appear, from ` +
      'the start of their log; one whose container ends is let go. The socket stays open across ' +
      'deploys; `{"type":"end"}` and a close with code 1000 when the service is removed.',
    params: Strict({ serviceId: Uuid }),
    querystring: FollowQuery,
    errors: ['upgrade_required', 'origin_not_allowed', 'insufficient_role'],
    find: (db, request) => serviceById(db, request.params.serviceId),
    prepare: async (_access, row) => row.id,
    connect: (socket, serviceId, request) =>
      followService(ctx, registry, socket, serviceId, request.query.tail),
  });

  member({
    url: '/services/:serviceId/shell',
    key: ['deployments:write'],
    permission: 'deployments.write',
    resource: 'Service',
    operationId: 'openServiceShell',
    summary: 'Interactive shell in a service (WebSocket)',
    description:
      `${HANDSHAKE} Opens a login shell (bash when the image has it, else sh) in a running ` +
      'replica: the one `replica` names, else the first active one (409 `service_not_running` ' +
      'when none is; 404 `replica_not_found`). The frames are those of worker terminals: ' +
      '`{"type":"ready","mode":"shell","replica":"r1 abc123","cols":n,"rows":n}`, then ' +
      '`{"type":"output","data":base64}`; the client sends `{"type":"input","data":base64}` and ' +
      '`{"type":"resize","cols":n,"rows":n}`. `{"type":"exit","exitCode":n}` when the shell ends. ' +
      'Unlike a worker terminal the shell is not kept: closing the socket ends it. It needs ' +
      '`deployments:write`, not `:read`: a shell can change the running service (its files, its ' +
      'processes) and read its secrets from the environment.',
    params: Strict({ serviceId: Uuid }),
    querystring: ShellQuery,
    errors: [
      'upgrade_required',
      'origin_not_allowed',
      'insufficient_role',
      'service_not_running',
      'replica_not_found',
      'node_offline',
    ],
    find: (db, request) => serviceById(db, request.params.serviceId),
    prepare: (_access, row, request) =>
      shellTarget(ctx.db, registry, row.id, request.query.replica),
    connect: (socket, target, request) => {
      const { cols, rows } = request.query;
      openShell(socket, target, {
        ...(cols === undefined ? {} : { cols }),
        ...(rows === undefined ? {} : { rows }),
      });
    },
  });
}
