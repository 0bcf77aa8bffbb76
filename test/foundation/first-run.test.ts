import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../src/accounts/password.js';
import { openDatabase } from '../../src/db/connect.js';
import { present } from '../helpers/assert.js';
import {
  type FreshDatabase,
  freshDatabase,
  jsonLines,
  login,
  run,
  serve,
  sparrowArgs,
} from '../helpers/sparrow-process.js';

describe('a fresh server and `sparrow user create`', () => {
  let database: FreshDatabase;
  const email = `first-${randomBytes(4).toString('hex')}@example.test`;
  const second = `second-${randomBytes(4).toString('hex')}@example.test`;
  const secondPassword = `stdin ${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database?.close());

  it('starts with no account: JSON log lines when piped, where to go and how to create the first account; / redirects to the web app', async () => {
    const server = await serve(database.env);
    try {
      const home = await fetch(`${server.url}/`, { redirect: 'manual' });
      expect(home.status).toBe(302);
      expect(home.headers.get('location')).toBe('/app/');
      const docs = await fetch(`${server.url}/api/docs`);
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    } finally {
      const { code, stdout } = await server.stop();
      expect(code).toBe(0);
      const lines = jsonLines(stdout);
      const ready = lines.find((line) => String(line.msg).startsWith('Sparrow is ready at'));
      expect(ready?.msg).toContain('/api/docs');
      expect(ready?.msg).toContain('/app/');
      expect(ready).toMatchObject({ level: 30, registration: 'invite' });
      const hint = lines.find((line) => String(line.msg).startsWith('No account exists yet'));
      expect(hint?.level).toBe(40);
      // The command as this process was started (the bundled source here).
      const [command] = sparrowArgs([]);
      expect(hint?.msg).toContain(`\`node ${command} user create --email <address>\``);
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
    // Read the accounts directly (no server: the embedded database is for
    // one process at a time): still one, with its password unchanged.
    const handle = await openDatabase({
      databaseUrl: database.env.DATABASE_URL ?? null,
      databasePoolSize: 1,
      dataDir: present(database.env.DATA_DIR, 'DATA_DIR'),
    });
    try {
      const rows = await handle.db
        .selectFrom('users')
        .select(['email', 'password_hash'])
        .where(sql<string>`lower(email)`, '=', email.toLowerCase())
        .execute();
      expect(rows).toHaveLength(1);
      expect(
        await verifyPassword('another password', present(rows[0]?.password_hash, 'hash')),
      ).toBe(false);
    } finally {
      await handle.close();
    }
  });

  it('refuses bad arguments with the usage and status 2, before reaching the database', async () => {
    // The cases themselves are src/cli/user.test.ts; this is the command's
    // wiring. An unreachable database: had the command tried it, it would
    // say so and exit 1.
    const unreachable = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    const [refused, invalid, help] = await Promise.all([
      run(['user', 'create', '--email', 'boss@example.test', '--admin'], unreachable),
      run(
        ['user', 'create', '--email', 'not-an-address', '--password', 'long enough'],
        unreachable,
      ),
      run(['--help'], {}),
    ]);
    for (const result of [refused, invalid]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('Usage: sparrow user create');
    }
    expect(refused.stderr).toMatch(/^user: Sparrow has no instance administrator/);
    expect(invalid.stderr).toMatch(/^user: --email: /);
    expect(help.stdout).toMatch(/^ {2}user {6}create an account/m);
  });
});
