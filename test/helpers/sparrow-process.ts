/**
 * The `sparrow` command run from source as a child process, on a database of
 * its own: the first-run tests drive it as an operator would.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { hashPassword } from '../../src/accounts/password.js';
import { insertUser } from '../../src/accounts/repository.js';
import type { Database } from '../../src/db/schema.js';
import { newId } from '../../src/lib/ids.js';
import { adminUrl, databaseUrl, TEST_DATABASE_PREFIX } from './postgres.js';

/** The arguments of `node` that run the `sparrow` command of this run (see test/command-setup.ts). */
export function sparrowArgs(args: readonly string[]): string[] {
  return [inject('sparrowCommand'), ...args];
}

/** The `sparrow` command from source (`src/main.ts`, bundled), as a child process. */
export function sparrow(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, sparrowArgs(args), {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export async function run(args: string[], env: Record<string, string>, input?: string) {
  const child = sparrow(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin?.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr } satisfies Finished;
}

/**
 * An empty database of the kind this run tests, that the command migrates
 * itself: a new PostgreSQL database (not the migrated template), or a new
 * PGlite folder. `DATA_DIR` holds the secrets key either way.
 */
export interface FreshDatabase {
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function freshDatabase(): Promise<FreshDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sparrow-first-run-'));
  const target = inject('testDatabase');
  if (target.kind === 'pglite') {
    return {
      env: { DATA_DIR: dataDir },
      close: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `${TEST_DATABASE_PREFIX}${target.runId}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl(target.serverUrl) });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: databaseUrl(target.serverUrl, name) },
    close: async () => {
      const dropper = new pg.Client({ connectionString: adminUrl(target.serverUrl) });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Server {
  url: string;
  /** The process, for tests that end it otherwise (`kill -9`). */
  child: ChildProcess;
  /** Everything the server wrote to stdout so far. */
  output(): string;
  stop(): Promise<Finished>;
}

/** `sparrow serve` on a free loopback port, stdout piped; resolves once it listens. */
export async function serve(env: Record<string, string>): Promise<Server> {
  const child = sparrow(['serve'], { PORT: '0', HOST: '127.0.0.1', ...env });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  let stopping = false;
  let listening = false;
  // A server that dies on its own (an unhandled rejection, a crash) fails the run loudly, with its
  // output; the test killing it (kill -9) or stopping it is not that.
  child.on('exit', (code, signal) => {
    // Before it listens, `serve` rejects with the output instead.
    if (!listening || stopping || signal === 'SIGKILL' || code === null || code === 0) return;
    setImmediate(() => {
      throw new Error(`sparrow serve exited on its own with code ${code}:\n${stderr}${stdout}`);
    });
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const address = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      // The first-run hints follow the listening line: wait for them too.
      if (address?.[1] !== undefined && /Sparrow is ready at/.test(stdout)) {
        listening = true;
        resolve(address[1]);
      }
    });
    void closed.then((code) => reject(new Error(`serve exited (${code}): ${stderr}${stdout}`)));
  });
  return {
    url,
    child,
    output: () => stdout,
    async stop() {
      stopping = true;
      child.kill('SIGTERM');
      const code = await closed;
      return { code, stdout, stderr };
    },
  };
}

export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function login(server: Server, email: string, password: string) {
  const response = await fetch(`${server.url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return {
    status: response.status,
    body: (await response.json()) as { user?: Record<string, unknown> },
  };
}

/**
 * A new account (named `name`) written straight to the database of a fleet
 * of `sparrow serve` processes, signed in through `baseUrl`; its session
 * token ('' when the sign-in failed).
 */
export async function signedInAccount(
  db: Database,
  baseUrl: string,
  name: string,
): Promise<string> {
  const password = 'correct horse battery staple';
  const user = await insertUser(db, {
    id: newId(),
    email: `${name.toLowerCase()}-${newId()}@example.test`,
    name,
    password_hash: await hashPassword(password),
  });
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password }),
  });
  return ((await login.json()) as { token?: string }).token ?? '';
}
