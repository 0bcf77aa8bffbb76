/**
 * The client commands of the real `sparrow` program (bundled, as a process)
 * against a real `sparrow serve`, with a configuration folder of their own.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FreshDatabase,
  freshDatabase,
  run,
  type Server,
  serve,
  sparrowArgs,
} from '../../../test/helpers/sparrow-process.js';

const ERROR_LINE = /^Error: (.+) \(([a-z_]+)\)\n$/;

describe('sparrow login, orgs, projects and keys against a server', () => {
  let database: FreshDatabase;
  let server: Server;
  let home: string;
  let sessionToken = '';
  const email = `cli-${randomBytes(4).toString('hex')}@example.test`;
  const password = `cli ${randomBytes(8).toString('hex')}`;
  const org = `Acme ${randomBytes(3).toString('hex')}`;

  /** `sparrow …` with this file's configuration folder (and more environment). */
  const cli = (args: string[], env: Record<string, string> = {}, input?: string) =>
    run(args, { XDG_CONFIG_HOME: home, ...env }, input);

  beforeAll(async () => {
    database = await freshDatabase();
    home = await mkdtemp(join(tmpdir(), 'sparrow-cli-'));
    const created = await run(
      ['user', 'create', '--email', email, '--name', 'Ada', '--password-stdin'],
      database.env,
      `${password}\n`,
    );
    expect(created.code, created.stderr).toBe(0);
    server = await serve(database.env);
    const signIn = await fetch(`${server.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    sessionToken = ((await signIn.json()) as { token: string }).token;
  });

  afterAll(async () => {
    await server?.stop();
    await database?.close();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  it('logs in with a token on standard input and stores it for its owner only', async () => {
    const login = await cli(['login', server.url, '--token-stdin'], {}, `${sessionToken}\n`);
    expect(login.stderr).toBe('');
    expect(login.code).toBe(0);
    expect(login.stdout).toContain(`as Ada <${email}>`);

    const path = join(home, 'sparrow', 'config.json');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'sparrow'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      servers: { default: { url: server.url, token: sessionToken } },
      current: 'default',
    });

    const whoami = await cli(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({
      url: server.url,
      source: 'default',
      identity: { kind: 'user', email, name: 'Ada' },
    });
  });

  it('refuses a token the server does not know, storing nothing', async () => {
    const other = await mkdtemp(join(tmpdir(), 'sparrow-cli-'));
    try {
      const login = await run(
        ['login', server.url, '--token-stdin'],
        { XDG_CONFIG_HOME: other },
        'nope\n',
      );
      expect(login.code).toBe(1);
      expect(login.stderr).toMatch(ERROR_LINE);
      await expect(stat(join(other, 'sparrow', 'config.json'))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('creates and lists organizations and projects, as JSON and as a table', async () => {
    const created = await cli(['orgs', 'create', org, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const orgId = (JSON.parse(created.stdout) as { id: string }).id;
    const orgs = JSON.parse((await cli(['orgs', 'list', '--json'])).stdout) as Array<{
      id: string;
    }>;
    expect(orgs.map((o) => o.id)).toContain(orgId);

    const project = await cli([
      'projects',
      'create',
      'web',
      '--org',
      org,
      '--description',
      'The site',
      '--json',
    ]);
    expect(project.code, project.stderr).toBe(0);
    expect(JSON.parse(project.stdout)).toMatchObject({
      name: 'web',
      orgId,
      description: 'The site',
    });

    const byId = await cli(['projects', 'list', '--org', orgId, '--json']);
    expect(JSON.parse(byId.stdout)).toMatchObject([{ name: 'web' }]);
    const table = await cli(['projects', 'list', '--org', org]);
    expect(table.code).toBe(0);
    const [head, row] = table.stdout.split('\n');
    expect(head).toMatch(/^ID\s+NAME\s+DESCRIPTION$/);
    expect(row).toMatch(/^[0-9a-f-]{36}\s+web\s+The site$/);

    const workers = await cli(['workers', 'list', '--org', org, '--json']);
    expect(workers.code, workers.stderr).toBe(0);
    expect(JSON.parse(workers.stdout)).toEqual([]);

    const missing = await cli(['projects', 'list', '--org', 'No Such Org']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('Error: No organization "No Such Org" (by id or name)\n');
  });

  it('creates an API key printed once; SPARROW_TOKEN and SPARROW_URL win over the stored login; a missing scope is 403, a revoked key 401', async () => {
    const created = await cli([
      'keys',
      'create',
      'ci',
      '--org',
      org,
      '--scope',
      'projects:read',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout) as { token: string; tokenPrefix: string };
    expect(key.token).toMatch(/^spk_/);
    const listed = await cli(['keys', 'list', '--org', org]);
    expect(listed.stdout).toContain(key.tokenPrefix);
    expect(listed.stdout).not.toContain(key.token);

    const asKey = { SPARROW_TOKEN: key.token };
    const whoami = await cli(['whoami'], asKey);
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toBe(
      `API key ${key.tokenPrefix}… of ${org} on ${server.url} (from SPARROW_TOKEN)\n`,
    );
    expect(JSON.parse((await cli(['projects', 'list', '--json'], asKey)).stdout)).toMatchObject([
      { name: 'web' },
    ]);

    const refused = await cli(['projects', 'create', 'api', '--org', org], asKey);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(ERROR_LINE.exec(refused.stderr)?.[2]).toBe('missing_scope');

    const elsewhere = await cli(['whoami'], { SPARROW_URL: 'http://127.0.0.1:9' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/^Error: Cannot reach http:\/\/127\.0\.0\.1:9: /);

    const revoked = await cli(['keys', 'revoke', 'ci', '--org', org]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await cli(['projects', 'list'], asKey);
    expect(after.code).toBe(1);
    expect(after.stderr).toBe(
      'Error: The token is malformed, unknown, expired or revoked (invalid_token)\n',
    );
  });

  it('answers 2 to a bad argument, with the usage', async () => {
    for (const args of [
      ['projects', 'create'],
      ['keys', 'create', 'x', '--scope', 'everything'],
      ['workers', 'lst'],
      ['exec', 'w1', '--timeout', 'soon', '--', 'true'],
      ['login', '--token-stdin'],
    ]) {
      const bad = await cli(args, {}, '');
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.stdout, args.join(' ')).toBe('');
      expect(bad.stderr, args.join(' ')).not.toBe('');
    }
    const help = await cli(['workers', 'create', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--project <project>');
  });

  it('logs in with e-mail and password typed on a terminal, the password unechoed', async () => {
    const other = await mkdtemp(join(tmpdir(), 'sparrow-cli-'));
    try {
      // `script` gives the program a pseudo-terminal; the password is typed once it is asked for.
      const command = [process.execPath, ...sparrowArgs(['login', server.url, '--email', email])]
        .map((word) => `'${word}'`)
        .join(' ');
      const child = spawn('script', ['-qec', command, '/dev/null'], {
        env: { PATH: process.env.PATH ?? '', XDG_CONFIG_HOME: other, TERM: 'dumb' },
      });
      let output = '';
      let typed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Password: ') && !typed) {
          typed = true;
          child.stdin.write(`${password}\r`);
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code, output).toBe(0);
      expect(output).toContain(`as Ada <${email}>`);
      expect(output).not.toContain(password);
      const stored = JSON.parse(await readFile(join(other, 'sparrow', 'config.json'), 'utf8'));
      expect(stored.servers.default.token).toMatch(/\S/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('logs out: the stored login is gone and the session ended', async () => {
    const logout = await cli(['logout']);
    expect(logout.code).toBe(0);
    const whoami = await cli(['whoami']);
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toMatch(/Not logged in/);
    const me = await fetch(`${server.url}/auth/me`, {
      headers: { authorization: `Bearer ${sessionToken}` },
    });
    expect(me.status).toBe(401);
  });
});
