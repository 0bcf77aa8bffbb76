import WebSocket from 'ws';
import { agentConnectUrl } from '../../src/agent/connection.js';
import type { NodeInfo } from '../../src/agent/protocol/methods.js';
import { type AgentMessage, PROTOCOL_VERSION } from '../../src/agent/protocol/messages.js';

/**
 * What a fake agent answers to a request: a result, an error, or nothing at
 * all (`undefined`: the request stays pending, as a slow engine would leave it).
 */
export type FakeAnswer =
  | { result: unknown }
  | { error: { code: string; message: string } }
  | undefined;

export type FakeRuntime = (method: string, params: unknown) => FakeAnswer | Promise<FakeAnswer>;

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
      if (message.type !== 'request' || message.id === undefined) return;
      const { id, method = '' } = message;
      received.set(method, (received.get(method) ?? 0) + 1);
      void Promise.resolve(runtime(method, message.params)).then((answer) => {
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
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
}
