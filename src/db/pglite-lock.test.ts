import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  type FreshDatabase,
  freshDatabase,
  login,
  run,
  serve,
} from '../../test/helpers/sparrow-process.js';

/**
 * Two real processes on one embedded database: the second is refused at
 * once, naming the first; a lock left by a killed process is taken over.
 */
describe.runIf(inject('testDatabase').kind === 'pglite')('the embedded database lock', () => {
  let database: FreshDatabase;
  const email = `lock-${randomBytes(4).toString('hex')}@example.test`;
  const password = `lock ${randomBytes(8).toString('hex')}`;
  const create = () =>
    run(['user', 'create', '--email', email, '--password', password], database.env);

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database?.close());

  it('refuses a second process beside a running server, and takes over the lock of a killed one', async () => {
    const server = await serve(database.env);
    try {
      const refused = await create();
      expect(refused.code).not.toBe(0);
      expect(refused.stdout).not.toContain('Created the account');
      expect(refused.stderr).toContain(`in use by process ${server.child.pid}`);
      expect(refused.stderr).toMatch(/stop that process first/);
      // A second server is refused the same way, before it listens.
      const second = await run(['serve'], { ...database.env, PORT: '0', HOST: '127.0.0.1' });
      expect(second.code).not.toBe(0);
      expect(second.stderr).toContain(`in use by process ${server.child.pid}`);
      expect((await login(server, email, password)).status).toBe(401);
    } finally {
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('close', resolve));
    }

    // The killed server's lock is taken over at once.
    const created = await create();
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const restarted = await serve(database.env);
    try {
      expect((await login(restarted, email, password)).status).toBe(200);
    } finally {
      expect((await restarted.stop()).code).toBe(0);
    }
    // A stopped server gave the lock up.
    const again = await run(['migrate'], database.env);
    expect(again.code).toBe(0);
    // Six process starts on the embedded database: about 20 s on an idle
    // machine, several times that beside the rest of the suite.
  }, 300_000);
});
