import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export interface BenchServer {
  url: string;
  database: 'pglite' | 'postgres';
  stop(): Promise<void>;
}

export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model ?? 'unknown',
    cores: cores.length,
    memoryGiB: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server did not become healthy within 60 s');
}

/** PostgreSQL for benchmarks: BENCH_DATABASE_URL, or the local server's fresh `sparrow_bench`. */
export const BENCH_POSTGRES_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/sparrow_bench';

export async function recreatePostgresDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists "${name}" with (force)`);
  await client.query(`create database "${name}"`);
  await client.end();
}

/** Starts the built server (dist/) in a child process on a fresh database. */
export async function startServer(
  database: 'pglite' | 'postgres',
  env: Record<string, string> = {},
): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'sparrow-bench-'));
  const databaseEnv: Record<string, string> =
    database === 'postgres' ? { DATABASE_URL: BENCH_POSTGRES_URL } : {};
  if (database === 'postgres') await recreatePostgresDatabase(BENCH_POSTGRES_URL);
  const child = spawn(process.execPath, ['dist/main.js', 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      REGISTRATION_MODE: 'open',
      // The browser benchmark's page is on this origin: its session-cookie writes are accepted.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      ...databaseEnv,
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child);
  } catch (error) {
    child.kill('SIGTERM');
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    database,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
