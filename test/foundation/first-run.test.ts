import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adminUrl, databaseUrl, TEST_DATABASE_PREFIX } from '../helpers/postgres.js';

/** The `sparrow` command from source (`src/main.ts`), as a child process. */
function sparrow(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function run(args: string[], env: Record<string, string>, input?: string) {
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
interface FreshDatabase {
  env: Record<string, string>;
  close(): Promise<void>;
}

async function freshDatabase(): Promise<FreshDatabase> {
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

interface Server {
  url: string;
  /** Everything the server wrote to stdout so far. */
  output(): string;
  stop(): Promise<Finished>;
}

/** `sparrow serve` on a free loopback port, stdout piped; resolves once it listens. */
async function serve(env: Record<string, string>): Promise<Server> {
  const child = sparrow(['serve'], { PORT: '0', HOST: '127.0.0.1', ...env });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const listening = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
      // The first-run hints follow the listening line: wait for them too.
      if (listening?.[1] !== undefined && /Sparrow is ready at/.test(stdout)) resolve(listening[1]);
    });
    void closed.then((code) => reject(new Error(`serve exited (${code}): ${stderr}${stdout}`)));
  });
  return {
    url,
    output: () => stdout,
    async stop() {
      child.kill('SIGTERM');
      const code = await closed;
      return { code, stdout, stderr };
    },
  };
}

function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function login(server: Server, email: string, password: string) {
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

describe('a fresh server and `sparrow user create`', () => {
  let database: FreshDatabase;
  const email = `first-${randomBytes(4).toString('hex')}@example.test`;
  const second = `second-${randomBytes(4).toString('hex')}@example.test`;
  const secondPassword = `stdin ${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database?.close());

  it('starts with no account: JSON log lines when piped, where to go and how to create the first account; / redirects to the reference', async () => {
    const server = await serve(database.env);
    try {
      const home = await fetch(`${server.url}/`, { redirect: 'manual' });
      expect(home.status).toBe(302);
      expect(home.headers.get('location')).toBe('/api/docs');
      const docs = await fetch(new URL(home.headers.get('location') ?? '', server.url));
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    } finally {
      const { code, stdout } = await server.stop();
      expect(code).toBe(0);
      const lines = jsonLines(stdout);
      const ready = lines.find((line) => String(line.msg).startsWith('Sparrow is ready at'));
      expect(ready?.msg).toContain('/api/docs');
      expect(ready).toMatchObject({ level: 30, registration: 'invite' });
      const hint = lines.find((line) => String(line.msg).startsWith('No account exists yet'));
      expect(hint?.level).toBe(40);
      expect(hint?.msg).toContain('`npx tsx src/main.ts user create --email <address>`');
      expect(hint?.msg).toContain('ADMIN_EMAIL and ADMIN_PASSWORD');
      const embedded = database.env.DATABASE_URL === undefined;
      expect(String(hint?.msg).includes('stop the server')).toBe(embedded);
    }
  });

  it('creates accounts that sign in over HTTP while registration is closed', async () => {
    const created = await run(['user', 'create', '--email', email], database.env);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain(`Created the account ${email}`);
    const generated = /Password \(shown only now\): (\S+)/.exec(created.stdout)?.[1];
    expect(generated).toMatch(/^[A-Za-z0-9_-]{24}$/);

    const piped = await run(
      ['user', 'create', '--email', second, '--name', 'Second', '--password-stdin'],
      database.env,
      `${secondPassword}\n`,
    );
    expect(piped.code).toBe(0);
    expect(piped.stdout).not.toContain('Password (shown only now)');
    expect(piped.stdout).not.toContain(secondPassword);

    const server = await serve({ ...database.env, LOG_FORMAT: 'json' });
    try {
      const first = await login(server, email, generated ?? '');
      expect(first.status).toBe(200);
      expect(first.body.user).toMatchObject({ email, name: email.split('@')[0] });
      const other = await login(server, second, secondPassword);
      expect(other.status).toBe(200);
      expect(other.body.user).toMatchObject({ email: second, name: 'Second' });
      const register = await fetch(`${server.url}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'x@example.test', password: 'a'.repeat(12), name: 'X' }),
      });
      expect(register.status).toBe(403);
    } finally {
      const { stdout } = await server.stop();
      const messages = jsonLines(stdout).map((line) => String(line.msg));
      expect(messages.some((message) => message.startsWith('Sparrow is ready at'))).toBe(true);
      expect(messages.some((message) => message.startsWith('No account exists yet'))).toBe(false);
    }
  });

  it('refuses an address already used, in any case, with status 1 and nothing changed', async () => {
    const again = await run(
      ['user', 'create', '--email', email.toUpperCase(), '--password', 'another password'],
      database.env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `Error: An account with the e-mail ${email.toUpperCase()} already exists\n`,
    );
    const server = await serve(database.env);
    try {
      expect((await login(server, email, 'another password')).status).toBe(401);
    } finally {
      await server.stop();
    }
  });

  it('refuses bad arguments with the usage and status 2, before reaching the database', async () => {
    // An unreachable database: had the command tried it, it would say so and exit 1.
    const unreachable = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const cases: Array<[string[], RegExp]> = [
      [['--email', 'not-an-address', '--password', 'long enough password'], /--email: /],
      [['--email', 'short@example.test', '--password', 'short'], /--password: /],
      [['--password', 'long enough password'], /--email is required/],
      [['--email', 'boss@example.test', '--admin'], /no instance administrator/],
      [['--email', 'x@example.test', '--colour', 'red'], /Unknown option '--colour'/],
    ];
    for (const [args, message] of cases) {
      const result = await run(['user', 'create', ...args], unreachable);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toContain('Usage: sparrow user create');
    }
    const help = await run(['--help'], {});
    expect(help.stdout).toMatch(/^ {2}user {6}create an account/m);
  });
});

describe('ADMIN_EMAIL and ADMIN_PASSWORD at start', () => {
  let database: FreshDatabase;
  const email = `admin-${randomBytes(4).toString('hex')}@example.test`;
  const password = `first ${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database?.close());

  it('creates that account on a database without accounts', async () => {
    const server = await serve({ ...database.env, ADMIN_EMAIL: email, ADMIN_PASSWORD: password });
    try {
      const signedIn = await login(server, email, password);
      expect(signedIn.status).toBe(200);
      expect(signedIn.body.user).toMatchObject({ email, name: email.split('@')[0] });
    } finally {
      const { stdout } = await server.stop();
      const messages = jsonLines(stdout).map((line) => String(line.msg));
      expect(messages).toContain(`created the first account, ${email}, from ADMIN_EMAIL`);
      expect(messages.some((message) => message.startsWith('No account exists yet'))).toBe(false);
      expect(stdout).not.toContain(password);
    }
  });

  it('does nothing on a later start: no second account, the password unchanged (readable logs with LOG_FORMAT=pretty)', async () => {
    const changed = `changed ${randomBytes(8).toString('hex')}`;
    const server = await serve({
      ...database.env,
      ADMIN_EMAIL: email.toUpperCase(),
      ADMIN_PASSWORD: changed,
      LOG_FORMAT: 'pretty',
    });
    try {
      expect((await login(server, email, password)).status).toBe(200);
      expect((await login(server, email, changed)).status).toBe(401);
    } finally {
      const { stdout } = await server.stop();
      const lines = stdout.split('\n').filter((line) => line !== '');
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(() => JSON.parse(line), line).toThrow();
      expect(stdout).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: ADMIN_EMAIL is set but accounts exist already: nothing to create/m,
      );
      expect(stdout).toMatch(/INFO: Sparrow is ready at http:\/\/localhost:0; the API reference/);
      expect(stdout).toMatch(/INFO: incoming request POST \/auth\/login/);
      expect(stdout).not.toContain('created the first account');
    }
    const duplicate = await run(
      ['user', 'create', '--email', email, '--password', changed],
      database.env,
    );
    expect(duplicate.code).toBe(1);
  });

  it('stops on a bad ADMIN_EMAIL or a short ADMIN_PASSWORD, naming the variable', async () => {
    const badEmail = await run(['serve'], {
      ...database.env,
      ADMIN_EMAIL: 'admin',
      ADMIN_PASSWORD: password,
    });
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toBe(
      'Configuration error: ADMIN_EMAIL: expected an e-mail address, got "admin"\n',
    );
    const short = await run(['serve'], {
      ...database.env,
      ADMIN_EMAIL: email,
      ADMIN_PASSWORD: 'short',
    });
    expect(short.code).toBe(1);
    expect(short.stderr).toBe(
      'Configuration error: ADMIN_PASSWORD: expected 12 to 256 characters, got 5\n',
    );
  });
});
