import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assert } from 'vitest';
import type { BatchEnvelope, Envelope } from '../../src/content/webhooks/payload.js';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  raw: string;
  /** The parsed body: webhook bodies are not in the API description; payload.ts states them. */
  body: Envelope;
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
      const body: Envelope = JSON.parse(raw);
      received.push({ headers: request.headers, raw, body, at: Date.now() });
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

/** The batch delivery among `bodies` of this type and/or batch, failing the test without one. */
export function findBatch(
  bodies: readonly Envelope[],
  match: { type?: string; batchId?: string },
): BatchEnvelope {
  const found = bodies.find(
    (body): body is BatchEnvelope =>
      body.kind === 'batch' &&
      (match.type === undefined || body.type === match.type) &&
      (match.batchId === undefined || body.batch.batchId === match.batchId),
  );
  assert.isDefined(found, `no batch delivery matching ${JSON.stringify(match)}`);
  return found;
}

type EventsPath = `/workspaces/${string}/events?${string}`;

function isEventsPath(path: string): path is EventsPath {
  return /^\/workspaces\/[^/?]+\/events\?/.test(path);
}

/** Where a batch delivery says its events are read: the event list of its workspace. */
export function batchReadPath(body: BatchEnvelope): EventsPath {
  const path = body.batch.read.path;
  assert(isEventsPath(path), `${path} is not the event list of a workspace`);
  return path;
}
