import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers/database.js';
import type { DatabaseHandle } from './connect.js';
import { Listener, notify } from './listen.js';
import { inTransaction } from './transaction.js';

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(inject('testDatabase').kind === 'postgres')('LISTEN/NOTIFY', () => {
  let database: DatabaseHandle;
  let listener: Listener;
  const received: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    listener = new Listener(database.url ?? null, pino({ level: 'silent' }));
    listener.listen('test_channel', (payload) => received.push(payload));
    await listener.ready();
  });
  afterAll(async () => {
    await listener.close();
    await database.close();
  });

  it('delivers a notification sent in a transaction when, and only if, it commits', async () => {
    await inTransaction(database.db, (trx) => notify(trx, 'test_channel', 'committed'));
    await expect(
      inTransaction(database.db, async (trx) => {
        await notify(trx, 'test_channel', 'rolled-back');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await notify(database.db, 'test_channel', 'after');
    await until(() => received.includes('after'));
    expect(received).toEqual(['committed', 'after']);
  });

  it('connects again after its connection is killed, and listens again', async () => {
    const killed = await sql<{ pid: number }>`
      select pg_terminate_backend(pid) as pid from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid()
        and query ilike 'listen%'`.execute(database.db);
    expect(killed.rows.length).toBe(1);
    // Notifications sent until it is back are lost (its users poll too): send until one arrives.
    await until(async () => {
      await notify(database.db, 'test_channel', 'back');
      return received.includes('back');
    });
  });

  it('refuses a channel name that is not a plain identifier', async () => {
    expect(() => listener.listen('bad; drop table x', () => {})).toThrow(
      'invalid notification channel',
    );
    await expect(notify(database.db, 'Bad-Name', 'x')).rejects.toThrow(
      'invalid notification channel',
    );
  });
});
