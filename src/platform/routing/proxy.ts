import {
  Agent,
  type ClientRequestArgs,
  type IncomingMessage,
  request as httpRequest,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { AgentRequestError } from '../../agent/peer.js';
import { recordExchange } from '../../http/connections.js';
import { AppError } from '../../http/errors.js';
import type { AppContext } from '../../module.js';
import type { ReplicaRow } from '../deployments/replicas.js';
import { agentRegistry } from '../nodes/registry.js';
import { checkServiceAccess } from './access.js';
import { forwardedRequestHeaders, forwardedResponseHeaders } from './headers.js';
import type { RouteTable } from './targets.js';
import { openTunnel } from './tunnel.js';

/** An answer of the proxy itself (the service was not reached, or refused by its rules). */
interface Refusal {
  status: number;
  code: string;
  message: string;
  location?: string;
  setCookie?: string[];
}

type Prepared =
  | { ok: true; replica: ReplicaRow & { port: number }; remove: string[]; setCookie: string[] }
  | { ok: false; refusal: Refusal };

/** A free tunnel is closed after this long unused. */
const IDLE_TUNNEL_MS = 30_000;
/** A replica's pool unused this long is dropped (its replica was replaced, most likely). */
const POOL_IDLE_MS = 5 * 60_000;

const unavailable = (message: string): Refusal => ({
  status: 503,
  code: 'service_unavailable',
  message,
});

/** What a failure to reach the container is answered with. */
function refusalOf(error: unknown): Refusal {
  if (error instanceof AppError && error.code === 'node_offline') {
    return unavailable("The service's node is offline; try again later");
  }
  const detail =
    error instanceof AgentRequestError ? `${error.code}: ${error.message}` : 'connection failed';
  return {
    status: 502,
    code: 'service_unreachable',
    message: `The service's container could not be reached (${detail})`,
  };
}

function errorBody(refusal: Refusal): string {
  return JSON.stringify({ error: { code: refusal.code, message: refusal.message } });
}

function answer(response: ServerResponse, refusal: Refusal): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = errorBody(refusal);
  const headers: Record<string, string | string[]> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  };
  if (refusal.location !== undefined) headers.location = refusal.location;
  if (refusal.setCookie !== undefined) headers['set-cookie'] = refusal.setCookie;
  response.writeHead(refusal.status, headers);
  response.end(body);
}

/** The same answer written straight to an upgrade's socket, which is then closed. */
function answerRaw(socket: Duplex, refusal: Refusal): void {
  if (!socket.writable) return void socket.destroy();
  const body = errorBody(refusal);
  const lines = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  if (refusal.location !== undefined) lines.push(`Location: ${refusal.location}`);
  for (const cookie of refusal.setCookie ?? []) lines.push(`Set-Cookie: ${cookie}`);
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

function rawHead(status: number, message: string | undefined, headers: readonly string[]) {
  const lines = [`HTTP/1.1 ${status} ${message ?? STATUS_CODES[status] ?? ''}`];
  for (let index = 0; index + 1 < headers.length; index += 2) {
    lines.push(`${headers[index]}: ${headers[index + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

/** Keep-alive HTTP connections to one replica, each a `port.connect` tunnel. */
class TunnelAgent extends Agent {
  lastUsed = Date.now();

  constructor(
    private readonly open: () => Promise<Duplex>,
    private readonly onError: (error: unknown) => void,
  ) {
    super({ keepAlive: true, maxFreeSockets: 64, timeout: IDLE_TUNNEL_MS, scheduling: 'lifo' });
  }

  override createConnection(
    _options: ClientRequestArgs,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): undefined {
    this.open().then(
      (socket) => callback?.(null, socket),
      (error: unknown) => {
        this.onError(error);
        callback?.(error instanceof Error ? error : new Error(String(error)), undefined as never);
      },
    );
    return undefined;
  }
}

/**
 * Proxies requests and upgrades for services' hosts to their replicas,
 * through the replica's node agent (`port.connect`), from any server process.
 */
export class ServiceProxy {
  private readonly pools = new Map<string, TunnelAgent>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly ctx: AppContext,
    private readonly table: RouteTable,
  ) {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const pool of this.pools.values()) pool.destroy();
    this.pools.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, pool] of this.pools) {
      if (now - pool.lastUsed < POOL_IDLE_MS) continue;
      pool.destroy();
      this.pools.delete(id);
    }
  }

  private async tunnel(replica: ReplicaRow & { port: number }): Promise<Duplex> {
    const peer = await agentRegistry(this.ctx).reach(replica.node_id);
    return openTunnel(peer, replica.container_name, replica.port);
  }

  private pool(replica: ReplicaRow & { port: number }): TunnelAgent {
    let pool = this.pools.get(replica.id);
    if (pool === undefined) {
      pool = new TunnelAgent(
        () => this.tunnel(replica),
        (error) => this.ctx.log.debug({ err: error, replicaId: replica.id }, 'tunnel refused'),
      );
      this.pools.set(replica.id, pool);
    }
    pool.lastUsed = Date.now();
    return pool;
  }

  /** The service, its access decision and a replica, or what to answer instead. */
  private async prepare(request: IncomingMessage, host: string, serviceId: string) {
    const target = await this.table.target(serviceId);
    if (target === null) {
      return {
        ok: false,
        refusal: {
          status: 404,
          code: 'service_not_found',
          message: `No service answers at ${host}`,
        },
      } satisfies Prepared;
    }
    const decision = await checkServiceAccess(
      this.ctx,
      { ...target.route, host },
      { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers },
    );
    if (decision.kind === 'deny') {
      const { status, code, message } = decision;
      return { ok: false, refusal: { status, code, message } } satisfies Prepared;
    }
    if (decision.kind === 'redirect') {
      const refusal: Refusal = {
        status: 302,
        code: 'sign_in_required',
        message: 'Sign in to reach this service',
        location: decision.location,
        ...(decision.setCookie === undefined ? {} : { setCookie: decision.setCookie }),
      };
      return { ok: false, refusal } satisfies Prepared;
    }
    const replica = this.table.pick(target);
    if (replica === undefined) {
      return {
        ok: false,
        refusal: unavailable('The service has no running replica; deploy or start it'),
      } satisfies Prepared;
    }
    const { port } = replica;
    if (port === null) {
      return {
        ok: false,
        refusal: unavailable('The service has no port: set one and deploy it'),
      } satisfies Prepared;
    }
    return {
      ok: true,
      replica: { ...replica, port },
      remove: decision.removeHeaders,
      setCookie: decision.setCookie ?? [],
    } satisfies Prepared;
  }

  /** Proxies one HTTP request; the body streams both ways. */
  async handleRequest(
    request: IncomingMessage,
    response: ServerResponse,
    host: string,
    serviceId: string,
  ): Promise<void> {
    // The idle guard then waits for a slow service as for a slow API handler.
    recordExchange(request, response);
    let prepared: Prepared;
    try {
      prepared = await this.prepare(request, host, serviceId);
    } catch (error) {
      this.ctx.log.error({ err: error, serviceId }, 'service proxy: lookup failed');
      return answer(response, unavailable('The service cannot be looked up right now'));
    }
    if (!prepared.ok) {
      request.resume();
      return answer(response, prepared.refusal);
    }
    const { replica, remove, setCookie } = prepared;
    const headers = forwardedRequestHeaders(request, remove, this.ctx.config.trustProxy);
    const send = (retry: boolean) => {
      const upstream = httpRequest({
        agent: this.pool(replica),
        method: request.method,
        path: request.url,
        headers,
        setHost: false,
      });
      upstream.on('response', (incoming) => {
        response.writeHead(
          incoming.statusCode ?? 502,
          incoming.statusMessage,
          forwardedResponseHeaders(incoming, setCookie),
        );
        incoming.pipe(response);
        incoming.on('error', () => response.destroy());
        incoming.on('aborted', () => response.destroy());
      });
      upstream.on('error', (error) => {
        // A kept-alive tunnel the container had just closed: a body-less request goes again.
        const idempotent = ['GET', 'HEAD', 'OPTIONS'].includes(request.method ?? '');
        if (retry && upstream.reusedSocket && idempotent && !response.headersSent) {
          return send(false);
        }
        request.unpipe(upstream);
        answer(response, refusalOf(error));
      });
      // A retry comes after the (body-less) request has ended: piping it would never end this one.
      if (request.readableEnded) upstream.end();
      else request.pipe(upstream);
      response.on('close', () => {
        if (!response.writableFinished) upstream.destroy();
      });
    };
    send(true);
  }

  /** Proxies an upgrade (WebSocket): the response head, then bytes both ways. */
  async handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    host: string,
    serviceId: string,
  ): Promise<void> {
    socket.on('error', () => {});
    let prepared: Prepared;
    try {
      prepared = await this.prepare(request, host, serviceId);
    } catch (error) {
      this.ctx.log.error({ err: error, serviceId }, 'service proxy: lookup failed');
      return answerRaw(socket, unavailable('The service cannot be looked up right now'));
    }
    if (!prepared.ok) return answerRaw(socket, prepared.refusal);
    let tunnel: Duplex;
    try {
      tunnel = await this.tunnel(prepared.replica);
    } catch (error) {
      return answerRaw(socket, refusalOf(error));
    }
    const headers = forwardedRequestHeaders(request, prepared.remove, this.ctx.config.trustProxy);
    headers.connection = 'Upgrade';
    headers.upgrade = request.headers.upgrade ?? 'websocket';
    const upstream = httpRequest({
      method: request.method,
      path: request.url,
      headers,
      setHost: false,
      createConnection: () => tunnel,
    });
    const { setCookie } = prepared;
    upstream.on('upgrade', (incoming, upSocket, upHead) => {
      const raw = [...incoming.rawHeaders];
      for (const cookie of setCookie) raw.push('Set-Cookie', cookie);
      socket.write(rawHead(101, incoming.statusMessage, raw));
      if (upHead.length > 0) socket.write(upHead);
      if (head.length > 0) upSocket.write(head);
      upSocket.on('error', () => socket.destroy());
      socket.on('error', () => upSocket.destroy());
      upSocket.on('close', () => socket.destroy());
      socket.on('close', () => upSocket.destroy());
      upSocket.pipe(socket);
      socket.pipe(upSocket);
    });
    upstream.on('response', (incoming) => {
      // The service declined the upgrade: its answer, then the connection closes.
      const raw = forwardedResponseHeaders(incoming, setCookie);
      raw.push('Connection', 'close');
      socket.write(rawHead(incoming.statusCode ?? 502, incoming.statusMessage, raw));
      incoming.pipe(socket);
    });
    upstream.on('error', (error) => {
      tunnel.destroy();
      answerRaw(socket, refusalOf(error));
    });
    upstream.end();
  }
}
