import { randomBytes } from 'node:crypto';
import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createEngine, parseDockerHost, SPARROW_PODMAN_SOCKET } from '../src/agent/engine.js';
import { newId } from '../src/lib/ids.js';
import { call } from './api.js';
import { percentile, startPlatformBench } from './platform.js';
import { BENCH_POSTGRES_URL, machine } from './server.js';

/**
 * The service proxy against the container's port reached directly, in the
 * same run: added latency of small requests (p50, p99; one keep-alive
 * connection, one request at a time), the rate of small requests with
 * several at once, and the rate of a large download. The target is a
 * keep-alive Node.js server in a container (the host's node binary bound
 * into the workspace image); the proxy path is client -> server process ->
 * agent process (port.connect) -> container. PostgreSQL: the benchmark
 * writes the replica row a deploy would.
 */
const SMALL = Number(process.env.BENCH_SMALL_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const RATE_SECONDS = Number(process.env.BENCH_RATE_SECONDS ?? 5);
const DOWNLOAD_MB = Number(process.env.BENCH_DOWNLOAD_MB ?? 256);
const ROUNDS = Number(process.env.BENCH_DOWNLOAD_ROUNDS ?? 3);
const PORT = 8080;

const TARGET = `
const http = require('node:http');
const chunk = Buffer.alloc(1 << 20, 97);
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/big/')) {
    const mb = Number(req.url.slice(5));
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': mb * chunk.length });
    let sent = 0;
    const pump = () => {
      while (sent < mb) {
        sent++;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    return pump();
  }
  res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
  res.end('ok');
});
server.keepAliveTimeout = 60000;
server.listen(${PORT});
`;

interface Side {
  base: string;
  host?: string;
  headers?: Record<string, string>;
}

function get(side: Side, path: string, agent: Agent, sink?: (bytes: number) => void) {
  return new Promise<number>((resolve, reject) => {
    const request = httpRequest(
      `${side.base}${path}`,
      {
        agent,
        headers: { ...(side.host === undefined ? {} : { host: side.host }), ...side.headers },
      },
      (response) => {
        response.on('data', (chunk: Buffer) => sink?.(chunk.length));
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

async function latency(side: Side) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  for (let i = 0; i < 200; i++) await get(side, '/small', agent);
  const times: number[] = [];
  for (let i = 0; i < SMALL; i++) {
    const start = process.hrtime.bigint();
    const status = await get(side, '/small', agent);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (status !== 200) throw new Error(`status ${status}`);
  }
  agent.destroy();
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
}

async function rate(side: Side) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const end = Date.now() + RATE_SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await get(side, '/small', agent);
        done++;
      }
    }),
  );
  agent.destroy();
  return Math.round(done / RATE_SECONDS);
}

async function download(side: Side) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let bytes = 0;
    const start = process.hrtime.bigint();
    await get(side, `/big/${DOWNLOAD_MB}`, agent, (n) => {
      bytes += n;
    });
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (bytes !== DOWNLOAD_MB * 1024 * 1024) throw new Error(`got ${bytes} bytes`);
    rates.push(bytes / 1024 / 1024 / seconds);
  }
  agent.destroy();
  return Math.round(percentile(rates, 50));
}

async function main() {
  process.env.BENCH_DATABASE = 'postgres';
  const bench = await startPlatformBench();
  const docker = createEngine(
    parseDockerHost(process.env.DOCKER_HOST ?? `unix://${SPARROW_PODMAN_SOCKET}`),
  );
  const folder = await mkdtemp(join(tmpdir(), 'sparrow-bench-proxy-'));
  const name = `sparrow-svc-bench-${randomBytes(4).toString('hex')}`;
  const db = new pg.Client({ connectionString: BENCH_POSTGRES_URL });
  try {
    await writeFile(join(folder, 'server.js'), TARGET);
    const container = await docker.createContainer({
      name,
      Image: process.env.BENCH_IMAGE ?? 'localhost/sparrow/workspace:v2',
      Cmd: ['/usr/local/bin/node', '/bench/server.js'],
      HostConfig: {
        Binds: [
          `${await realpath(process.execPath)}:/usr/local/bin/node:ro`,
          `${folder}:/bench:ro`,
        ],
      },
    });
    await container.start();
    const info = await container.inspect();
    const address = Object.values(info.NetworkSettings.Networks)[0]?.IPAddress ?? '';
    const direct: Side = { base: `http://${address}:${PORT}` };
    for (let tries = 0; ; tries++) {
      try {
        await get(direct, '/small', new Agent());
        break;
      } catch (error) {
        if (tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    const deployment = await call(
      bench.server.url,
      'POST',
      `/api/orgs/${bench.orgId}/deployments`,
      { name: 'bench' },
      bench.token,
    );
    const service = await call(
      bench.server.url,
      'POST',
      `/api/orgs/${bench.orgId}/deployments/${deployment.id}/services`,
      { name: 'target', source: { type: 'image', image: 'bench:1' }, port: PORT },
      bench.token,
    );
    await db.connect();
    const runId = newId();
    await db.query(
      `insert into job_runs (id, org_id, deployment_id, service_id, kind, status)
       values ($1, $2, $3, $4, 'deploy', 'succeeded')`,
      [runId, bench.orgId, deployment.id, service.id],
    );
    await db.query(
      `insert into service_replicas (id, service_id, run_id, node_id, container_name, port, state)
       values ($1, $2, $3, $4, $5, $6, 'active')`,
      [newId(), service.id, runId, bench.nodeId, name, PORT],
    );
    const proxied: Side = {
      base: bench.server.url,
      host: `svc-${service.id}.svc.localhost:${new URL(bench.server.url).port}`,
    };
    await get(proxied, '/small', new Agent());

    const directLatency = await latency(direct);
    const proxyLatency = await latency(proxied);
    const directRate = await rate(direct);
    const proxyRate = await rate(proxied);
    const directDownload = await download(direct);
    const proxyDownload = await download(proxied);
    // The private check with a warm grant cache: the same service switched to
    // private, reached with an organization key that has deployments:access,
    // against the public figure measured again right before it.
    await call(
      bench.server.url,
      'PATCH',
      `/api/orgs/${bench.orgId}/deployments/${deployment.id}/services/${service.id}`,
      { accessControl: 'private' },
      bench.token,
    );
    const key = await call(
      bench.server.url,
      'POST',
      `/api/orgs/${bench.orgId}/api-keys`,
      { name: 'bench access', ownerType: 'org', scopes: ['deployments:access'] },
      bench.token,
    );
    const guarded: Side = { ...proxied, headers: { 'x-service-token': key.token } };
    if ((await get(proxied, '/small', new Agent())) !== 401) throw new Error('not private');
    const privateLatency = await latency(guarded);
    await call(
      bench.server.url,
      'PATCH',
      `/api/orgs/${bench.orgId}/deployments/${deployment.id}/services/${service.id}`,
      { accessControl: 'public' },
      bench.token,
    );
    const publicAgain = await latency(proxied);
    const privateAdded = Math.round((privateLatency.p50Ms - publicAgain.p50Ms) * 1000) / 1000;
    const addedP50 = Math.round((proxyLatency.p50Ms - directLatency.p50Ms) * 100) / 100;
    const addedP99 = Math.round((proxyLatency.p99Ms - directLatency.p99Ms) * 100) / 100;
    const output = {
      benchmark: 'proxy',
      machine: machine(),
      database: 'postgres',
      access: 'public',
      smallRequests: {
        requests: SMALL,
        direct: directLatency,
        proxy: proxyLatency,
        addedP50Ms: addedP50,
        addedP99Ms: addedP99,
        targetAddedP50Ms: 1,
        met: addedP50 < 1,
      },
      smallRequestRate: {
        concurrency: CONCURRENCY,
        seconds: RATE_SECONDS,
        directPerSecond: directRate,
        proxyPerSecond: proxyRate,
        ratio: Math.round((proxyRate / directRate) * 100) / 100,
        target: 0.8,
        met: proxyRate / directRate >= 0.8,
      },
      privateCheck: {
        publicP50Ms: publicAgain.p50Ms,
        privateP50Ms: privateLatency.p50Ms,
        privateP99Ms: privateLatency.p99Ms,
        addedP50Ms: privateAdded,
        targetAddedP50Ms: 0.2,
        met: privateAdded < 0.2,
      },
      download: {
        megabytes: DOWNLOAD_MB,
        rounds: ROUNDS,
        directMBps: directDownload,
        proxyMBps: proxyDownload,
        ratio: Math.round((proxyDownload / directDownload) * 100) / 100,
        target: 0.8,
        met: proxyDownload / directDownload >= 0.8,
      },
    };
    process.stdout.write(`${JSON.stringify(output, null, 2)}\n`);
  } finally {
    await db.end().catch(() => {});
    await docker
      .getContainer(name)
      .remove({ force: true })
      .catch(() => {});
    await bench.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
