import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { AgentPeer } from '../../src/agent/peer.js';

/**
 * A stand-in for the server's agent endpoint: accepts `token` at
 * /api/agent/connect, in the Authorization header or the query (401 otherwise), and wraps each connection in the real
 * server-side peer. `nextPeer()` resolves with the next agent to connect.
 * Each server welcomes its agents as a node of its own (`nodeId`), so agents
 * of different test files on one engine leave each other's containers alone.
 */
export interface TestAgentServer {
  url: string;
  nodeId: string;
  peers: AgentPeer[];
  /** The raw sockets, for sending what a well-behaved server would not. */
  sockets: WebSocket[];
  nextPeer(): Promise<AgentPeer>;
  rejected: number;
  close(): Promise<void>;
}

export async function startTestAgentServer(
  token: string,
  port = 0,
  nodeId = `node-under-test-${randomUUID()}`,
): Promise<TestAgentServer> {
  const http: Server = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  const waiting: ((peer: AgentPeer) => void)[] = [];
  const queued: AgentPeer[] = [];
  const state: TestAgentServer = {
    url: '',
    nodeId,
    peers: [],
    sockets: [],
    rejected: 0,
    nextPeer: () =>
      new Promise((resolve) => {
        const ready = queued.shift();
        if (ready !== undefined) resolve(ready);
        else waiting.push(resolve);
      }),
    close: async () => {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  http.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    // The agent sends the token in a header; the query form is the spec's.
    const given =
      request.headers.authorization === undefined
        ? url.searchParams.get('token')
        : request.headers.authorization.replace(/^Bearer /, '');
    if (url.pathname !== '/api/agent/connect' || given !== token) {
      state.rejected++;
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const peer = new AgentPeer(ws, { nodeId, requestTimeoutMs: 60_000 });
      state.peers.push(peer);
      state.sockets.push(ws);
      const resolve = waiting.shift();
      if (resolve !== undefined) resolve(peer);
      else queued.push(peer);
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const address = http.address() as AddressInfo;
  state.url = `http://127.0.0.1:${address.port}`;
  return state;
}

/** Sends one raw text frame and resolves with the response to its id. */
export function rawRequest(socket: WebSocket, text: string, id: string): Promise<unknown> {
  return new Promise((resolve) => {
    const listener = (data: Buffer) => {
      const message: unknown = JSON.parse(data.toString('utf8'));
      if (typeof message === 'object' && message !== null && 'id' in message && message.id === id) {
        socket.off('message', listener);
        resolve(message);
      }
    };
    socket.on('message', listener);
    socket.send(text);
  });
}

export { WebSocket };
