import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import { agentConnectUrl } from '../../src/agent/connection.js';
import { type AgentMessage, PROTOCOL_VERSION } from '../../src/agent/protocol/messages.js';
import type { NodeInfo } from '../../src/agent/protocol/methods.js';

/**
 * What a fake agent answers to a request: a result, an error, or nothing at
 * all (`undefined`: the request stays pending, as a slow engine would leave it).
 */
export type FakeAnswer =
  | { result: unknown }
  | { error: { code: string; message: string } }
  | undefined;

export type FakeRuntime = (
  method: string,
  params: unknown,
  id: string,
) => FakeAnswer | Promise<FakeAnswer>;

export const FAKE_NODE_INFO: NodeInfo = {
  hostname: 'fake-node',
  platform: 'linux',
  arch: 'x64',
  cpus: 2,
  memoryBytes: 4 * 1024 ** 3,
  agentVersion: '0.1.0',
  engine: { reachable: true, name: 'fake', version: '0', apiVersion: '0', error: null },
};

export interface FakeAgent {
  socket: WebSocket;
  /** Resolves once the server welcomed the hello. */
  welcomed: Promise<void>;
  /** Requests received, by method. */
  received: Map<string, number>;
  /** Emits `stream.pause`, `stream.resume`, `stream.close`, ... with the stream id. */
  controls: EventEmitter;
  close(): Promise<void>;
}

function send(socket: WebSocket, message: AgentMessage): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * An agent speaking the real protocol over a real WebSocket, with a runtime
 * that needs no container engine: tests of placement and the fleet bench use
 * it where what matters is the server, not the containers.
 */
export function connectFakeAgent(
  server: string,
  token: string,
  runtime: FakeRuntime = () => undefined,
): FakeAgent {
  const socket = new WebSocket(agentConnectUrl(server, token));
  const received = new Map<string, number>();
  const controls = new EventEmitter();
  const welcomed = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', (code) => reject(new Error(`closed before welcome (${code})`)));
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as {
        type: string;
        id?: string;
        method?: string;
        params?: unknown;
      };
      if (message.type === 'welcome') resolve();
      if (message.type.startsWith('stream.')) controls.emit(message.type, message.id);
      if (message.type !== 'request' || message.id === undefined) return;
      const { id, method = '' } = message;
      received.set(method, (received.get(method) ?? 0) + 1);
      void Promise.resolve(runtime(method, message.params, id)).then((answer) => {
        if (answer === undefined) return;
        if ('error' in answer)
          send(socket, { type: 'response', id, ok: false, error: answer.error });
        else send(socket, { type: 'response', id, ok: true, result: answer.result });
      });
    });
  });
  welcomed.catch(() => {});
  socket.on('open', () =>
    send(socket, {
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      node: FAKE_NODE_INFO,
      inventory: [],
      terminals: [],
      commands: [],
    }),
  );
  return {
    socket,
    welcomed,
    received,
    controls,
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}

function summary(id: string, workerId: string | null, running: boolean) {
  return {
    id,
    name: `fake-${id}`,
    image: 'fake',
    state: running ? 'running' : 'exited',
    status: running ? 'Up' : 'Exited (0)',
    labels: {},
    workerId,
    createdAt: new Date().toISOString(),
    ports: [],
  };
}

function details(id: string, workerId: string | null, running: boolean) {
  return {
    ...summary(id, workerId, running),
    running,
    exitCode: running ? null : 0,
    startedAt: null,
    finishedAt: null,
  };
}

/**
 * A runtime that keeps containers as records: create, start, stop, remove,
 * inventory, exec (echoes its command) and stats answer at once. `hold`
 * names methods left unanswered (a slow engine).
 */
export function fakeContainers(hold: readonly string[] = []): FakeRuntime & {
  containers: Map<string, { workerId: string | null; running: boolean }>;
} {
  const containers = new Map<string, { workerId: string | null; running: boolean }>();
  let next = 0;
  const runtime = (method: string, params: unknown): FakeAnswer => {
    if (hold.includes(method)) return undefined;
    const p = (params ?? {}) as { containerId?: string; workerId?: string; command?: string[] };
    const found = p.containerId === undefined ? undefined : containers.get(p.containerId);
    switch (method) {
      case 'container.create': {
        const id = `c${++next}${'0'.repeat(12)}`;
        containers.set(id, { workerId: p.workerId ?? null, running: false });
        return { result: details(id, p.workerId ?? null, false) };
      }
      case 'container.start':
      case 'container.stop': {
        if (found === undefined || p.containerId === undefined) {
          return { error: { code: 'not_found', message: 'no such container' } };
        }
        found.running = method === 'container.start';
        const container = details(p.containerId, found.workerId, found.running);
        return { result: method === 'container.start' ? { container, checkouts: [] } : container };
      }
      case 'container.remove':
        return {
          result: { removed: p.containerId !== undefined && containers.delete(p.containerId) },
        };
      case 'inventory.reconcile': {
        const asked = (params as { workers: { workerId: string }[] }).workers;
        const present = asked.flatMap(({ workerId }) => {
          const entry = [...containers].find(([, c]) => c.workerId === workerId);
          return entry === undefined
            ? []
            : [{ workerId, container: summary(entry[0], workerId, entry[1].running) }];
        });
        const missing = asked
          .map(({ workerId }) => workerId)
          .filter((workerId) => !present.some((entry) => entry.workerId === workerId));
        return { result: { present, missing, orphans: [] } };
      }
      case 'exec.run':
        return {
          result: {
            exitCode: 0,
            stdout: `${(p.command ?? []).join(' ')}\n`,
            stderr: '',
            truncated: false,
            timedOut: false,
            durationMs: 1,
          },
        };
      case 'container.stats':
        return {
          result: {
            cpuPercent: 1.5,
            onlineCpus: 2,
            memoryBytes: 1024 * 1024,
            memoryLimitBytes: null,
            memoryPercent: null,
            pids: 3,
            readAt: new Date().toISOString(),
          },
        };
      default:
        return { error: { code: 'not_supported', message: `fake runtime: ${method}` } };
    }
  };
  return Object.assign(runtime, { containers });
}
