import type { AddressInfo } from 'node:net';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy that hands each new connection to the next upstream
 * in turn (skipping one that refuses), as a load balancer in front of
 * several server processes would. A connection stays on its upstream: an
 * HTTP client that keeps connections alive keeps its process, so tests that
 * want to spread requests open a connection per request.
 */
export interface RoundRobinProxy {
  url: string;
  /** Upstreams as `host:port`; may be changed while running. */
  upstreams: string[];
  /** How many connections each upstream was given. */
  counts: Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: string[]): Promise<RoundRobinProxy> {
  const sockets = new Set<Socket>();
  const counts = new Map<string, number>();
  let next = 0;
  const state: RoundRobinProxy = {
    url: '',
    upstreams: [...upstreams],
    counts,
    close: async () => {},
  };

  const connect = (client: Socket, tries: number) => {
    const list = state.upstreams;
    if (tries >= list.length || list.length === 0) {
      client.destroy();
      return;
    }
    const target = list[next++ % list.length] ?? '';
    const [host = '127.0.0.1', port = '0'] = target.split(/:(?=\d+$)/);
    const upstream = createConnection({ host, port: Number(port) });
    sockets.add(upstream);
    let connected = false;
    upstream.once('connect', () => {
      connected = true;
      counts.set(target, (counts.get(target) ?? 0) + 1);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.on('error', () => {
      if (!connected) connect(client, tries + 1);
      else client.destroy();
    });
    upstream.on('close', () => {
      sockets.delete(upstream);
      if (connected) client.destroy();
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    connect(client, 0);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
