import {
  Agent,
  type ClientRequestArgs,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppContext } from '../../module.js';
import { checkServiceAccess, PLATFORM_COOKIES } from '../service-access/access.js';
import type { ReplicaRow } from '../services/replicas.js';
import {
  answer,
  answerRaw,
  notFound,
  type Refusal,
  refusalOf,
  unavailable,
  unframed,
} from './answers.js';
import { applyFraming, hasBody, requestFraming } from './framing.js';
import { forwardedRequestHeaders, forwardedResponseHeaders } from './headers.js';
import type { RouteTable } from './targets.js';
import { openTunnel } from './tunnel.js';
import { UpgradeExchange } from './upgrade.js';

type Prepared =
  | { ok: true; replica: ReplicaRow & { port: number }; remove: string[]; setCookie: string[] }
  | { ok: false; refusal: Refusal };

/** A free tunnel is closed after this long unused. */
const IDLE_TUNNEL_MS = 30_000;
/** A replica's pool unused this long is dropped (its replica was replaced, most likely). */
const POOL_IDLE_MS = 5 * 60_000;

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
    const peer = await this.ctx.agents.reach(replica.node_id);
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
    if (target === null) return { ok: false, refusal: notFound(host) } satisfies Prepared;
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

  /** Answers 404 for a name under the service domain that is no service's. */
  refuseUnknown(request: IncomingMessage, response: ServerResponse, host: string): void {
    request.resume();
    answer(response, notFound(host));
  }

  refuseUnknownUpgrade(socket: Duplex, host: string): void {
    socket.on('error', () => {});
    answerRaw(socket, notFound(host));
  }

  /** Proxies one HTTP request; the body streams both ways. */
  async handleRequest(
    request: IncomingMessage,
    response: ServerResponse,
    host: string,
    serviceId: string,
  ): Promise<void> {
    const framing = requestFraming(request.headers);
    if (framing.kind === 'refused') {
      request.resume();
      return answer(response, unframed);
    }
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
    const { trustProxy } = this.ctx.config;
    const headers = forwardedRequestHeaders(request, remove, trustProxy, PLATFORM_COOKIES);
    applyFraming(headers, framing);
    // Only a request without a body can be sent again: its body is read once.
    const retryable =
      ['GET', 'HEAD', 'OPTIONS'].includes(request.method ?? '') && !hasBody(framing);
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
        if (retry && upstream.reusedSocket && retryable && !response.headersSent) {
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

  /** Proxies an upgrade (WebSocket): the request and its body, the response head, then bytes both ways. */
  async handleUpgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    host: string,
    serviceId: string,
  ): Promise<void> {
    socket.on('error', () => {});
    const framing = requestFraming(request.headers);
    const { idleTimeoutMs, requestTimeoutMs } = this.ctx.config.http;
    const exchange = new UpgradeExchange(
      socket,
      head,
      framing.kind === 'length' ? framing.length : 0,
      { idleMs: idleTimeoutMs, requestMs: requestTimeoutMs },
    );
    // Node leaves an upgrade's body unparsed: only a Content-Length one can be passed on.
    if (framing.kind === 'refused' || framing.kind === 'chunked') return exchange.refuse(unframed);
    let prepared: Prepared;
    try {
      prepared = await this.prepare(request, host, serviceId);
    } catch (error) {
      this.ctx.log.error({ err: error, serviceId }, 'service proxy: lookup failed');
      return exchange.refuse(unavailable('The service cannot be looked up right now'));
    }
    if (!prepared.ok) return exchange.refuse(prepared.refusal);
    let tunnel: Duplex;
    try {
      tunnel = await this.tunnel(prepared.replica);
    } catch (error) {
      return exchange.refuse(refusalOf(error));
    }
    const { trustProxy } = this.ctx.config;
    const headers = forwardedRequestHeaders(request, prepared.remove, trustProxy, PLATFORM_COOKIES);
    applyFraming(headers, framing);
    headers.connection = 'Upgrade';
    headers.upgrade = request.headers.upgrade ?? 'websocket';
    exchange.forward(request, tunnel, headers, prepared.setCookie);
  }
}
