import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { call, registerUser } from './api.js';
import { machine, startServer } from './server.js';

const DATABASES = (process.env.BENCH_DATABASES ?? 'postgres').split(',') as Array<
  'pglite' | 'postgres'
>;
/** Cards written one by one for the latency figures. */
const LATENCY_WRITES = Number(process.env.BENCH_LATENCY_WRITES ?? 200);
/** Deliveries queued while paused, then drained, for the throughput figure. */
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 2000);
const CONCURRENCY = 16;
/** The dispatcher's requests in flight at most: 4 cycles of 64. */
const BARE_CONCURRENCY = 256;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? 0) * 10) / 10;
}

/** A local receiver: answers 200 and notes when each card's delivery arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let lastBody = '';
  let waiter: { count: number; resolve: () => void } | null = null;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const text = Buffer.concat(chunks).toString('utf8');
      if (request.url === '/baseline') {
        response.end('ok');
        return;
      }
      lastBody = text;
      const body = JSON.parse(text);
      const id = body.event?.resource?.id;
      if (typeof id === 'string' && !arrivals.has(id)) arrivals.set(id, at);
      response.end('ok');
      if (waiter !== null && arrivals.size >= waiter.count) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    baselineUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/baseline`,
    arrivals,
    lastBody: () => lastBody,
    until(count: number, timeoutMs: number) {
      return new Promise<void>((resolve, reject) => {
        if (arrivals.size >= count) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`only ${arrivals.size} of ${count} deliveries arrived`)),
          timeoutMs,
        );
        waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function benchmark(database: 'pglite' | 'postgres') {
  const server = await startServer(database, { WEBHOOK_ALLOW_PRIVATE: 'true' });
  const receiver = await startReceiver();
  try {
    const token = await registerUser(server.url);
    const ws = `/workspaces/${(await call<{ id: string }>(server.url, 'POST', '/workspaces', { name: 'Bench', slug: 'bench' }, token)).id}`;
    const list = await call<{ id: string }>(
      server.url,
      'POST',
      `${ws}/collections`,
      { name: 'Bench', keyPrefix: 'B' },
      token,
    );
    const endpoint = await call<{ id: string }>(
      server.url,
      'POST',
      `${ws}/webhooks`,
      { url: receiver.url, eventTypes: ['item.created'] },
      token,
    );
    const create = () =>
      call<{ id: string }>(
        server.url,
        'POST',
        `${ws}/collections/${list.id}/items`,
        { title: 'Benchmark card' },
        token,
      );

    // Latency: one card at a time; from the write's answer (its commit is just before) to receipt.
    const committed = new Map<string, number>();
    for (let index = 0; index < LATENCY_WRITES; index++) {
      const item = await create();
      committed.set(item.id, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await receiver.until(LATENCY_WRITES, 60_000);
    const latencies = [...committed]
      .map(([id, at]) => (receiver.arrivals.get(id) ?? Number.NaN) - at)
      .sort((a, b) => a - b);

    // Throughput: a backlog queued while the endpoint is paused, drained after resume.
    await call(server.url, 'POST', `${ws}/webhooks/${endpoint.id}/pause`, undefined, token);
    let made = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (made < BACKLOG) {
          made += 1;
          await create();
        }
      }),
    );
    const total = LATENCY_WRITES + made;
    const started = performance.now();
    await call(server.url, 'POST', `${ws}/webhooks/${endpoint.id}/resume`, undefined, token);
    await receiver.until(total, 300_000);
    const seconds = (performance.now() - started) / 1000;

    // The bare baseline: the same bodies posted straight to the receiver by
    // one HTTP client, as many at once as the dispatcher keeps in flight.
    const agent = new Agent({ connections: BARE_CONCURRENCY });
    const bareStarted = performance.now();
    let sent = 0;
    await Promise.all(
      Array.from({ length: BARE_CONCURRENCY }, async () => {
        while (sent < made) {
          sent += 1;
          const response = await request(receiver.baselineUrl, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': 'application/json' },
            body: receiver.lastBody(),
          });
          await response.body.dump();
        }
      }),
    );
    const bareSeconds = (performance.now() - bareStarted) / 1000;
    await agent.close();
    return {
      database,
      latencyMs: {
        writes: LATENCY_WRITES,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: percentile(latencies, 100),
      },
      throughput: {
        deliveries: made,
        seconds: Math.round(seconds * 100) / 100,
        deliveriesPerSecond: Math.round((made / seconds) * 10) / 10,
        bareHttpPostsPerSecond: Math.round((made / bareSeconds) * 10) / 10,
      },
    };
  } finally {
    await receiver.close();
    await server.stop();
  }
}

const results = [];
for (const database of DATABASES) results.push(await benchmark(database));
process.stdout.write(
  `${JSON.stringify({ benchmark: 'webhooks', machine: machine(), results }, null, 2)}\n`,
);
