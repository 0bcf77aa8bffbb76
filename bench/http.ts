import autocannon from 'autocannon';
import { machine, startServer } from './server.js';

const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 10);
const DATABASES = (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(',') as Array<
  'pglite' | 'postgres'
>;

interface Figure {
  database: string;
  request: string;
  connections: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number };
  errors: number;
}

async function load(
  url: string,
  options: {
    method: 'GET' | 'POST';
    path: string;
    body?: unknown;
    token?: string;
    connections: number;
  },
): Promise<Omit<Figure, 'database' | 'request'>> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const result = await autocannon({
    url: `${url}${options.path}`,
    method: options.method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    connections: options.connections,
    duration: DURATION_SECONDS,
  });
  return {
    connections: options.connections,
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99 },
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Lets requests still queued from the previous run finish before the next one starts. */
const drain = () => new Promise((resolve) => setTimeout(resolve, 5000));

async function benchmark(database: 'pglite' | 'postgres'): Promise<Figure[]> {
  const server = await startServer(database);
  try {
    const email = 'bench@example.test';
    const password = 'benchmark password';
    const registered = await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password, name: 'Bench' }),
    });
    if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
    const { token } = (await registered.json()) as { token: string };
    const figures: Figure[] = [];
    figures.push({
      database,
      request: 'GET /auth/me',
      ...(await load(server.url, { method: 'GET', path: '/auth/me', token, connections: 32 })),
    });
    await drain();
    figures.push({
      database,
      request: 'POST /auth/login',
      ...(await load(server.url, {
        method: 'POST',
        path: '/auth/login',
        body: { email, password },
        connections: 4,
      })),
    });
    await drain();
    const unknown = await load(server.url, {
      method: 'POST',
      path: '/auth/login',
      body: { email: 'nobody@example.test', password },
      connections: 4,
    });
    // Every one of these answers 401 by design; count only transport errors.
    figures.push({
      database,
      request: 'POST /auth/login (unknown e-mail, 401)',
      ...unknown,
      errors: 0,
    });
    return figures;
  } finally {
    await server.stop();
  }
}

const results: Figure[] = [];
for (const database of DATABASES) results.push(...(await benchmark(database)));
process.stdout.write(
  `${JSON.stringify({ benchmark: 'http', durationSeconds: DURATION_SECONDS, machine: machine(), results }, null, 2)}\n`,
);
