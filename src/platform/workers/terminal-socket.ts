import Type, { type Static } from 'typebox';
import type WebSocket from 'ws';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { Strict, Uuid } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import { socketRoutes } from '../access/socket-route.js';
import * as orgs from '../orgs/service.js';
import { relay } from '../terminals/relay.js';
import { agentCall } from './agent-call.js';
import { requireWorkerAction } from './policy.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';
import { runningTarget, type WorkerTarget } from './target.js';

const SESSION = '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$';

const TerminalQuery = Strict({
  mode: Type.Optional(Type.Enum(['terminal', 'logs'])),
  session: Type.Optional(Type.String({ pattern: SESSION })),
  cols: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  rows: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  tail: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
});
type TerminalQuery = Static<typeof TerminalQuery>;

/**
 * `GET /api/workers/{workerId}/terminal`: attach to a persistent terminal
 * session (`mode=terminal`, the default) or follow the container's logs
 * (`mode=logs`). Authenticated like REST before the upgrade.
 */
export function terminalSocketRoute(router: Router, ctx: AppContext): void {
  const { registry } = ctx.workers;

  /** How an SSH token acts: for its own worker only, as its person with their current role. */
  async function accessOf(db: Database, principal: Principal, row: WorkerRow): Promise<OrgAccess> {
    if (principal.kind !== 'worker_ssh') return orgs.orgAccess(db, principal, row.org_id);
    const member = await orgs.getMembership(db, row.org_id, principal.userId);
    if (principal.workerId !== row.id || member === undefined) throw notFound('Worker');
    return {
      orgId: row.org_id,
      role: member.role,
      userId: member.userId,
      keyId: null,
      scopes: null,
    };
  }

  function attach(socket: WebSocket, target: WorkerTarget, query: TerminalQuery): void {
    if (query.mode === 'logs') {
      relay(
        socket,
        async (handlers) => {
          const { stream } = await target.peer.openStream(
            'logs.follow',
            {
              containerId: target.containerId,
              ...(query.tail === undefined ? {} : { tail: query.tail }),
            },
            handlers,
          );
          return { stream, ready: { mode: 'logs' } };
        },
        'end',
      );
      return;
    }
    const name = query.session ?? 'main';
    const size =
      query.cols !== undefined && query.rows !== undefined
        ? { cols: query.cols, rows: query.rows }
        : {};
    relay(
      socket,
      async (handlers) => {
        const { terminals } = await agentCall(() =>
          target.peer.request('terminal.list', { containerId: target.containerId }),
        );
        if (!terminals.some((terminal) => terminal.name === name)) {
          await target.peer
            .request('terminal.create', { containerId: target.containerId, name, ...size })
            .catch((error: unknown) => {
              // Another client created it meanwhile.
              if (!(error instanceof Error && 'code' in error && error.code === 'terminal_exists'))
                throw error;
            });
        }
        const { result, stream } = await target.peer.openStream(
          'terminal.attach',
          { containerId: target.containerId, name, ...size },
          handlers,
        );
        return {
          stream,
          ready: { mode: 'terminal', session: result.name, cols: result.cols, rows: result.rows },
        };
      },
      'exit',
    );
  }

  socketRoutes(router, ctx, ['Terminals']).member({
    url: '/workers/:workerId/terminal',
    key: ['workers:exec'],
    permission: 'workers.use',
    resource: 'Worker',
    // Before the query is read, as it always was: a caller who may not open it learns nothing more.
    stage: 'preValidation',
    operationId: 'attachWorkerTerminal',
    summary: 'Terminal and log stream (WebSocket)',
    description: [
      'A WebSocket upgrade, authenticated like REST before it (a session, as header or `session` cookie, ',
      'a key with `workers:exec`, or an SSH token of this worker). A handshake authenticated by the cookie ',
      'is refused (403 `origin_not_allowed`) unless its `Origin` is the origin of `PUBLIC_URL` or absent; ',
      'a bearer token needs no `Origin`. Frames are JSON text. `mode=terminal` (default) attaches to the ',
      'session named by `session` (default `main`), creating it when it does not exist: the server sends ',
      '`{"type":"ready",...}` then `{"type":"output","data":base64}` frames, first the restored screen and ',
      'scrollback; the client sends `{"type":"input","data":base64}` and `{"type":"resize","cols":n,"rows":n}`. ',
      'Several clients may attach at once (the latest size wins). Closing the socket detaches; the ',
      'program keeps running. `{"type":"exit","exitCode":n}` when it ends. `mode=logs` follows the ',
      'container logs (`tail` lines first): `output` frames with `stream` stdout or stderr, then `end`. ',
      'A bad client frame is answered with `{"type":"error","code":"invalid_frame"}`.',
    ].join(''),
    params: Strict({ workerId: Uuid }),
    querystring: TerminalQuery,
    errors: [
      'upgrade_required',
      'origin_not_allowed',
      'insufficient_role',
      'worker_not_running',
      'node_offline',
    ],
    find: (db, request) => repository.findWorker(db, request.params.workerId),
    access: accessOf,
    prepare: async (access, row) => {
      requireWorkerAction(access, row);
      return runningTarget(registry, access, row);
    },
    connect: (socket, target, request) => attach(socket, target, request.query),
  });
}
