import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { Backoff } from './backoff.js';
import { Dispatcher, type Logger } from './dispatcher.js';
import { streamHandlers, unaryHandlers } from './handlers.js';
import { watchInventory } from './inventory-watch.js';
import { binaryOf } from './protocol/binary.js';
import { encodeMessage } from './protocol/codec.js';
import { type AgentMessage, CloseCodes, PROTOCOL_VERSION } from './protocol/messages.js';
import { afterRecovery } from './recovery-gate.js';
import type { Runtime } from './runtime.js';
import { rawText } from './ws-text.js';

export const AGENT_CONNECT_PATH = '/api/agent/connect';

export class AgentUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentUrlError';
  }
}

/**
 * The WebSocket address for a server address: http(s) becomes ws(s), the
 * connect path is appended to the server's base path (unless given), and the
 * node token, when given, rides in the query (the spec's form; the agent
 * itself sends it in a header, so that it stays out of URLs and logs).
 */
export function agentConnectUrl(server: string, token?: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new AgentUrlError(`expected an http(s) or ws(s) URL, got "${server}"`);
  }
  const schemes: Record<string, string> = {
    'http:': 'ws:',
    'https:': 'wss:',
    'ws:': 'ws:',
    'wss:': 'wss:',
  };
  const scheme = schemes[url.protocol];
  if (scheme === undefined) throw new AgentUrlError(`unsupported scheme in "${server}"`);
  url.protocol = scheme;
  const base = url.pathname.replace(/\/+$/, '');
  if (!base.endsWith(AGENT_CONNECT_PATH)) url.pathname = `${base}${AGENT_CONNECT_PATH}`;
  url.hash = '';
  if (token !== undefined) url.searchParams.set('token', token);
  return url.toString();
}

export interface AgentConnectionOptions {
  /** The server's address (http://host:8080) or the full connect URL. */
  server: string;
  token: string;
  runtime: Runtime;
  log?: Logger;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** A ping this often; no pong by the next one means the link is dead. */
  heartbeatMs?: number;
}

/** The connection is backed up past this many bytes: pause the streams. */
const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 512 * 1024;

export class AgentFatalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentFatalError';
  }
}

/**
 * The agent's link to the server: dials, says hello (node, inventory, the
 * terminals and commands it knows), starts recovering its node's containers
 * once welcomed, answers requests, and when the link drops, dials again
 * with backoff. Events: `welcome` (the server accepted
 * the hello), `disconnected` (code, reason), `fatal` (the server refused the
 * token; no more attempts).
 */
export class AgentConnection extends EventEmitter {
  private socket: WebSocket | null = null;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly backoff: Backoff;
  private readonly url: string;
  private readonly log: Logger;
  private draining = false;

  constructor(private readonly options: AgentConnectionOptions) {
    super();
    this.url = agentConnectUrl(options.server);
    this.log = options.log ?? (() => {});
    this.backoff = new Backoff({
      initialMs: options.initialBackoffMs ?? 500,
      maxMs: options.maxBackoffMs ?? 30_000,
    });
  }

  /** The address dialled (the token is in a header, not in it), for logs. */
  get displayUrl(): string {
    return this.url;
  }

  start(): void {
    this.stopped = false;
    this.dial();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const socket = this.socket;
    if (socket === null || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.close(1000, 'agent stopping');
      setTimeout(() => {
        socket.terminate();
        resolve();
      }, 2000).unref();
    });
  }

  private dial(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url, {
      headers: { authorization: `Bearer ${this.options.token}` },
      maxPayload: 64 * 1024 * 1024,
      handshakeTimeout: 15_000,
      // A zero mask leaves frames as they are (ws then skips the XOR pass):
      // masking guards proxies against scripts in browsers, not an agent.
      generateMask: (mask: Buffer) => mask.fill(0),
    });
    this.socket = socket;
    const { runtime } = this.options;
    const handlers = afterRecovery(runtime, unaryHandlers(runtime), streamHandlers(runtime));
    const dispatcher = new Dispatcher(
      handlers.unary,
      handlers.stream,
      (message) => this.send(socket, message, dispatcher),
      this.log,
      (nodeId) => {
        this.backoff.reset();
        // Not awaited: the node is online meanwhile, and requests about a
        // container wait for its recovery (afterRecovery).
        runtime.welcomed(nodeId);
        this.emit('welcome', nodeId);
      },
      (frame) => this.sendFrame(socket, frame, dispatcher),
    );
    let alive = true;
    let heartbeat: NodeJS.Timeout | undefined;
    let watch: { stop(): void } | undefined;

    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      if (status === 401 || status === 403) {
        this.fatal(`the server refused the node token (HTTP ${status})`);
      } else {
        this.log('warn', `the server answered the connection with HTTP ${status}`);
      }
      socket.terminate();
    });
    socket.on('open', () => {
      this.log('info', `connected to ${this.displayUrl}`);
      heartbeat = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, this.options.heartbeatMs ?? 15_000);
      this.hello(socket, dispatcher).then(
        () => {
          if (socket.readyState !== WebSocket.OPEN) return;
          watch = watchInventory(
            this.options.runtime.docker,
            (containers) =>
              this.send(
                socket,
                { type: 'inventory', containers, at: new Date().toISOString() },
                dispatcher,
              ),
            this.log,
          );
        },
        (error: unknown) => {
          this.log('error', `hello failed: ${String(error)}`);
          socket.terminate();
        },
      );
    });
    socket.on('pong', () => {
      alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return dispatcher.handleBinary(binaryOf(data));
      dispatcher.handle(rawText(data));
    });
    socket.on('error', (error) => this.log('warn', `connection error: ${error.message}`));
    socket.on('close', (code, reason) => {
      clearInterval(heartbeat);
      watch?.stop();
      dispatcher.closeAll();
      this.socket = null;
      this.emit('disconnected', code, reason.toString());
      if (code === CloseCodes.unauthorized) this.fatal('the server refused the node token');
      if (this.stopped) return;
      const delay = this.backoff.next();
      this.log('warn', `disconnected (${code}); reconnecting in ${delay} ms`);
      this.retryTimer = setTimeout(() => this.dial(), delay);
    });
  }

  private fatal(message: string): void {
    if (this.stopped) return;
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this.log('error', message);
    this.emit('fatal', new AgentFatalError(message));
  }

  /**
   * Says hello at once: the recovery of what the previous agent left (its
   * sessions and commands) comes after the welcome, so the terminals and
   * commands listed are those this agent knows by now (none at its first
   * hello, all of them after a reconnection).
   */
  private async hello(socket: WebSocket, dispatcher: Dispatcher): Promise<void> {
    const { runtime } = this.options;
    const node = await runtime.nodeInfo();
    const inventory = node.engine.reachable ? await runtime.inventory().catch(() => []) : [];
    this.send(
      socket,
      {
        type: 'hello',
        protocol: PROTOCOL_VERSION,
        node,
        inventory,
        terminals: runtime.terminals.list(),
        commands: runtime.commands.list(),
        binaryFrames: true,
      },
      dispatcher,
    );
  }

  private send(socket: WebSocket, message: AgentMessage, dispatcher: Dispatcher): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(encodeMessage(message));
    if (socket.bufferedAmount > HIGH_WATER && !this.draining) this.drain(socket, dispatcher);
  }

  private sendFrame(socket: WebSocket, frame: Buffer, dispatcher: Dispatcher): void {
    if (socket.readyState !== WebSocket.OPEN) return;
    socket.send(frame, { binary: true });
    if (socket.bufferedAmount > HIGH_WATER && !this.draining) this.drain(socket, dispatcher);
  }

  /** Pauses every stream until the socket has sent most of what it holds. */
  private drain(socket: WebSocket, dispatcher: Dispatcher): void {
    this.draining = true;
    dispatcher.pauseAll();
    const check = setInterval(() => {
      if (socket.readyState !== WebSocket.OPEN || socket.bufferedAmount < LOW_WATER) {
        clearInterval(check);
        this.draining = false;
        dispatcher.resumeAll();
      }
    }, 5);
  }
}
