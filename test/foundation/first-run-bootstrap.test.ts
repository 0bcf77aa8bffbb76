import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FreshDatabase,
  freshDatabase,
  jsonLines,
  login,
  run,
  serve,
} from '../helpers/sparrow-process.js';

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
      expect(stdout).toMatch(/INFO: Sparrow is ready at http:\/\/localhost:0; the web app is at /);
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
