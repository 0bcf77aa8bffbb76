import { type Connection, requestHeaders, type SparrowClient, urlOf } from './client.js';
import {
  type BuildFrame,
  type ClientFrame,
  type ErrorFrame,
  encodeBase64,
  type JobRunFrame,
  type JobRunReady,
  type LogsFrame,
  type ServiceLogsReady,
  type ShellReady,
  type TerminalFrame,
  type TerminalReady,
  type WorkerLogsReady,
} from './frames.js';
import type { WebSocketConstructor, WebSocketLike } from './sockets-types.js';

/** A refusal on a live socket: an `error` frame, or the socket closed before `ready`. */
export class SocketError extends Error {
  override readonly name = 'SocketError';
  constructor(
    /** The frame's code (`agent_error`, `node_offline`, `invalid_frame`), or `closed`. */
    readonly code: string,
    message: string,
    /** The WebSocket close code, when the socket closed. */
    readonly closeCode?: number,
  ) {
    super(message);
  }
}

export interface LiveSocket<Ready, Frame> extends AsyncIterable<Frame> {
  /** The `ready` frame; rejects with a SocketError when the socket fails or closes before it. */
  readonly ready: Promise<Ready>;
  /** The frames after `ready`, until the socket closes (the iteration then ends). */
  frames(): AsyncIterableIterator<Frame>;
  /** Resolves when the socket has closed, with its close code. */
  readonly closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

/** A terminal or shell: frames in, keystrokes and sizes out. */
export interface TerminalSocket<Ready> extends LiveSocket<Ready, TerminalFrame> {
  /** Sends keystrokes (text as UTF-8, or bytes). */
  input(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
}

function webSocketClass(connection: Connection): WebSocketConstructor {
  const found =
    connection.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (found === undefined)
    throw new Error(
      'No WebSocket here (Node 20): pass `WebSocket` (the `ws` package) to the client',
    );
  return found;
}

function socketUrl(connection: Connection, path: string, query: URLSearchParams): string {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(urlOf(connection, path, query), base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

function queryOf(values: Record<string, string | number | undefined>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) query.set(name, String(value));
  }
  return query;
}

function isFrame(value: unknown): value is { type: string } {
  return (
    typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string'
  );
}

/**
 * Opens a socket and sorts its frames: `ready` settles `ready`, the others
 * are queued for `frames()`; an `error` frame before `ready` rejects it.
 */
function open<Ready, Frame>(
  client: SparrowClient,
  path: string,
  query: URLSearchParams,
  /** For a socket that sends no `ready` frame: what `ready` resolves to once it opens. */
  readyOnOpen?: () => Ready,
): { live: LiveSocket<Ready, Frame>; send(frame: ClientFrame): void } {
  const { connection } = client;
  const Socket = webSocketClass(connection);
  const headers = requestHeaders(connection);
  const url = socketUrl(connection, path, query);
  const socket: WebSocketLike =
    Object.keys(headers).length === 0 ? new Socket(url) : new Socket(url, { headers });

  const queue: Frame[] = [];
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resolve of waiting) resolve();
    waiting.clear();
  };
  let ended = false;
  let isReady = readyOnOpen !== undefined;
  let settleReady: { resolve(ready: Ready): void; reject(error: SocketError): void } | undefined;
  const ready = new Promise<Ready>((resolve, reject) => {
    settleReady = { resolve, reject };
  });
  // A caller that only iterates frames should not see an unhandled rejection.
  ready.catch(() => {});
  let markClosed: (closed: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    markClosed = resolve;
  });

  const push = (frame: Frame) => {
    queue.push(frame);
    wake();
  };
  socket.addEventListener('message', ({ data }) => {
    if (typeof data !== 'string') return;
    let frame: unknown;
    try {
      frame = JSON.parse(data);
    } catch {
      return;
    }
    if (!isFrame(frame)) return;
    if (!isReady && frame.type === 'ready') {
      isReady = true;
      settleReady?.resolve(frame as Ready);
      return;
    }
    if (!isReady && frame.type === 'error') {
      const failure = frame as ErrorFrame;
      settleReady?.reject(new SocketError(failure.code, failure.message));
    }
    push(frame as Frame);
  });
  socket.addEventListener('close', ({ code, reason }) => {
    ended = true;
    // Rejects `ready` when it has not come; after it, this changes nothing (a promise settles once).
    settleReady?.reject(
      new SocketError('closed', `The socket closed before it was ready (${code} ${reason})`, code),
    );
    markClosed({ code, reason });
    wake();
  });
  socket.addEventListener('error', () => {});
  if (readyOnOpen !== undefined)
    socket.addEventListener('open', () => settleReady?.resolve(readyOnOpen()));

  async function* frames(): AsyncIterableIterator<Frame> {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (ended) return;
      await new Promise<void>((resolve) => waiting.add(resolve));
    }
  }

  const live: LiveSocket<Ready, Frame> = {
    ready,
    closed,
    frames,
    [Symbol.asyncIterator]: frames,
    close: () => socket.close(1000, 'client closed'),
  };
  return { live, send: (frame) => socket.send(JSON.stringify(frame)) };
}

function terminal<Ready>(
  opened: ReturnType<typeof open<Ready, TerminalFrame>>,
): TerminalSocket<Ready> {
  const { live, send } = opened;
  return {
    ...live,
    input(data) {
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
      send({ type: 'input', data: encodeBase64(bytes) });
    },
    resize: (cols, rows) => send({ type: 'resize', cols, rows }),
  };
}

export interface TerminalOptions {
  /** The persistent session's name (default `main`); created when it does not exist. */
  session?: string;
  cols?: number;
  rows?: number;
}

/** Attaches to a worker's persistent terminal session (`mode=terminal`). Closing detaches. */
export function openTerminal(
  client: SparrowClient,
  workerId: string,
  options: TerminalOptions = {},
): TerminalSocket<TerminalReady> {
  const query = queryOf({ mode: 'terminal', ...options });
  return terminal(
    open<TerminalReady, TerminalFrame>(
      client,
      `/api/workers/${encodeURIComponent(workerId)}/terminal`,
      query,
    ),
  );
}

/** Follows a worker container's logs (`mode=logs`), `tail` last lines first. */
export function followWorkerLogs(
  client: SparrowClient,
  workerId: string,
  options: { tail?: number } = {},
): LiveSocket<WorkerLogsReady, LogsFrame> {
  const query = queryOf({ mode: 'logs', tail: options.tail });
  return open<WorkerLogsReady, LogsFrame>(
    client,
    `/api/workers/${encodeURIComponent(workerId)}/terminal`,
    query,
  ).live;
}

/** An interactive shell in a running replica of a service; closing ends it. */
export function openServiceShell(
  client: SparrowClient,
  serviceId: string,
  options: { replica?: string; cols?: number; rows?: number } = {},
): TerminalSocket<ShellReady> {
  return terminal(
    open<ShellReady, TerminalFrame>(
      client,
      `/api/services/${encodeURIComponent(serviceId)}/shell`,
      queryOf(options),
    ),
  );
}

/** Follows a service's logs, every replica, across deploys. */
export function followServiceLogs(
  client: SparrowClient,
  serviceId: string,
  options: { tail?: number } = {},
): LiveSocket<ServiceLogsReady, LogsFrame> {
  return open<ServiceLogsReady, LogsFrame>(
    client,
    `/api/services/${encodeURIComponent(serviceId)}/terminal`,
    queryOf(options),
  ).live;
}

/** A job run's output from its start, then live, then its `end`. */
export function followJobRun(
  client: SparrowClient,
  runId: string,
): LiveSocket<JobRunReady, JobRunFrame> {
  return open<JobRunReady, JobRunFrame>(
    client,
    `/api/job-runs/${encodeURIComponent(runId)}/logs`,
    queryOf({}),
  ).live;
}

/**
 * An image build's steps and log, then its `end`. This socket sends no
 * `ready` frame: `ready` resolves once the socket is open.
 */
export function followImageBuild(
  client: SparrowClient,
  buildId: string,
): LiveSocket<void, BuildFrame> {
  return open<void, BuildFrame>(
    client,
    `/api/image-builds/${encodeURIComponent(buildId)}/logs`,
    queryOf({}),
    () => undefined,
  ).live;
}
