import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  raw: string;
  body: any;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers the next requests with this status (default 200), after `delayMs`. */
  respond(status: number, delayMs?: number): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that records every request. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let status = 200;
  let delayMs = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers, raw, body: JSON.parse(raw), at: Date.now() });
      const answer = () => {
        response.statusCode = status;
        response.end('ok');
      };
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    respond(next, delay = 0) {
      status = next;
      delayMs = delay;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
