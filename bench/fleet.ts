/**
 * `npm run bench:fleet`: two server processes on one PostgreSQL behind a
 * loopback round-robin proxy, N simulated agents (the real agent protocol
 * over WebSocket, a fake runtime without containers) sending inventory
 * reports, and a steady load of exec and stats requests through either
 * process (half of them reach the agent through the relay). Prints, per N,
 * the agents connected, requests per second, p50/p95/p99 latency and the
 * servers' RSS.
 *
 * FLEET_SIZES (default 100,500,2000), FLEET_SECONDS (load per size, 15),
 * FLEET_WARMUP_SECONDS (load before measuring, 10: relays open on first use),
 * FLEET_CONCURRENCY (requests in flight, 32), FLEET_INVENTORY_MS (each
 * agent's inventory report interval, 10000), BENCH_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/sparrow_fleet_bench, recreated).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { connectFakeAgent, type FakeAgent, fakeContainers } from '../test/helpers/fake-agent.js';
import { startRoundRobinProxy } from '../test/helpers/round-robin-proxy.js';
import { call, registerUser } from './api.js';
import { percentile } from './platform.js';
import { machine, recreatePostgresDatabase } from './server.js';

const DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sparrow_fleet_bench';
const SIZES = (process.env.FLEET_SIZES ?? '100,500,2000').split(',').map(Number);
const SECONDS = Number(process.env.FLEET_SECONDS ?? 15);
const CONCURRENCY = Number(process.env.FLEET_CONCURRENCY ?? 32);
const WARMUP_SECONDS = Number(process.env.FLEET_WARMUP_SECONDS ?? 10);
const INVENTORY_MS = Number(process.env.FLEET_INVENTORY_MS ?? 10_000);

interface Serve {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function serve(port: number, dataDir: string): Promise<Serve> {
  const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL,
      LOG_LEVEL: 'warn',
      REGISTRATION_MODE: 'open',
      SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error('server did not start in 60 s');
    const ok = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    child,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function rssMiB(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kib / 1024);
}

const base = 20_000 + Math.floor(Math.random() * 20_000);

async function runSize(size: number, round: number) {
  await recreatePostgresDatabase(DATABASE_URL);
  const dataDir = await mkdtemp(join(tmpdir(), 'sparrow-fleet-'));
  // One after the other: the first migrates the database.
  const servers = [await serve(base + round * 2, dataDir)];
  servers.push(await serve(base + round * 2 + 1, dataDir));
  const proxy = await startRoundRobinProxy(servers.map((server) => new URL(server.url).host));
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  const agents: FakeAgent[] = [];
  const timers: NodeJS.Timeout[] = [];
  try {
    const token = await registerUser(proxy.url);
    const api = <T>(method: string, path: string, body?: unknown) =>
      call<T>(proxy.url, method, `/api${path}`, body, token);
    const org = await api<{ id: string }>('POST', '/orgs', { name: 'Fleet' });
    const project = await api<{ id: string }>('POST', `/orgs/${org.id}/projects`, {
      name: 'fleet',
    });
    const targets: { nodeId: string; workerId: string; token: string; containerId: string }[] = [];
    for (let index = 0; index < size; index++) {
      const node = await api<{ node: { id: string }; token: string }>(
        'POST',
        `/orgs/${org.id}/nodes`,
        { name: `node-${index}` },
      );
      const workerId = crypto.randomUUID();
      const containerId = `fleet${index.toString().padStart(12, '0')}`;
      await db.query(
        `insert into workers (id, org_id, project_id, node_id, name, state, container_id, image)
         values ($1, $2, $3, $4, $5, 'ready', $6, 'fake')`,
        [workerId, org.id, project.id, node.node.id, `w-${index}`, containerId],
      );
      targets.push({ nodeId: node.node.id, workerId, token: node.token, containerId });
    }

    const connectStart = Date.now();
    for (let batch = 0; batch < targets.length; batch += 100) {
      await Promise.all(
        targets.slice(batch, batch + 100).map(async (target) => {
          const runtime = fakeContainers();
          runtime.containers.set(target.containerId, { workerId: target.workerId, running: true });
          const agent = connectFakeAgent(proxy.url, target.token, runtime);
          agents.push(agent);
          await agent.welcomed;
        }),
      );
    }
    const held = async () => {
      const result = await db.query<{ count: string }>(
        'select count(*) from nodes where agent_process_id is not null',
      );
      return Number(result.rows[0]?.count ?? 0);
    };
    while ((await held()) < size && Date.now() - connectStart < 120_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const connectSeconds = (Date.now() - connectStart) / 1000;

    // Inventory reports, spread over the interval.
    agents.forEach((agent, index) => {
      const target = targets[index];
      if (target === undefined) return;
      const report = () =>
        agent.socket.send(
          JSON.stringify({
            type: 'inventory',
            at: new Date().toISOString(),
            containers: [
              {
                id: target.containerId,
                name: `fake-${target.containerId}`,
                image: 'fake',
                state: 'running',
                status: 'Up',
                labels: {},
                workerId: target.workerId,
                createdAt: null,
                ports: [],
              },
            ],
          }),
        );
      const start = setTimeout(() => {
        report();
        timers.push(setInterval(report, INVENTORY_MS));
      }, Math.random() * INVENTORY_MS);
      timers.push(start);
    });

    let latencies: number[] = [];
    let errors = 0;
    const deadline = Date.now() + (WARMUP_SECONDS + SECONDS) * 1000;
    const measureFrom = Date.now() + WARMUP_SECONDS * 1000;
    setTimeout(() => {
      latencies = [];
      errors = 0;
    }, WARMUP_SECONDS * 1000).unref();
    const loop = async () => {
      while (Date.now() < deadline) {
        const target = targets[Math.floor(Math.random() * targets.length)];
        if (target === undefined) continue;
        const path = `/orgs/${org.id}/projects/${project.id}/workers/${target.workerId}`;
        const started = performance.now();
        try {
          if (Math.random() < 0.5) {
            await api('POST', `${path}/exec`, { command: ['echo', 'hi'] });
          } else {
            await api('GET', `${path}/stats`);
          }
          if (Date.now() >= measureFrom) latencies.push(performance.now() - started);
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, loop));
    return {
      agents: size,
      connectedAgents: await held(),
      connectSeconds,
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      concurrency: CONCURRENCY,
      requests: latencies.length,
      errors,
      requestsPerSecond: Math.round(latencies.length / SECONDS),
      p50Ms: percentile(latencies, 50),
      p95Ms: percentile(latencies, 95),
      p99Ms: percentile(latencies, 99),
      serverRssMiB: servers.map((server) => rssMiB(server.child)),
    };
  } finally {
    for (const timer of timers) clearTimeout(timer);
    await Promise.all(agents.map((agent) => agent.close()));
    await proxy.close();
    for (const server of servers) await server.stop();
    await db.end();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (const [round, size] of SIZES.entries()) {
  const result = await runSize(size, round);
  process.stderr.write(`${JSON.stringify(result)}\n`);
  results.push(result);
}
console.log(
  JSON.stringify({ machine: machine(), inventoryEveryMs: INVENTORY_MS, results }, null, 2),
);
