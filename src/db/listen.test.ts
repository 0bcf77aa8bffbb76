import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../test/fixtures/database.js';
import { until } from '../../test/helpers/wait.js';
import { createListener, notify } from './listen.js';

const t = useDatabase();

const postgres = process.env.TEST_DATABASE_URL !== undefined;

describe('listen and notify', () => {
  it('delivers at commit, never from a rolled-back transaction, until unlistened', async () => {
    const listener = createListener(t.handle.notifications?.());
    const heard: Array<string | null> = [];
    const stop = await listener.listen('listen_test', (payload) => heard.push(payload));
    try {
      await t.db
        .transaction()
        .execute(async (tx) => {
          await notify(tx, 'listen_test', 'lost');
          throw new Error('roll back');
        })
        .catch(() => {});
      await t.db.transaction().execute(async (tx) => {
        await notify(tx, 'listen_test', 'first');
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(heard).toEqual([]);
      });
      await until(() => heard.length === 1, 'the committed notification');
      await notify(t.db, 'listen_test', 'second');
      await until(() => heard.length === 2, 'the second notification');
      expect(heard).toEqual(['first', 'second']);
      await stop();
      await notify(t.db, 'listen_test', 'unheard');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toEqual(['first', 'second']);
    } finally {
      await listener.close();
    }
  });

  it('refuses a channel name that is not an identifier', async () => {
    await expect(notify(t.db, 'bad; drop', 'x')).rejects.toThrow(/channel/);
  });

  it.runIf(postgres)(
    'reconnects after losing its connection and says it may have missed some',
    async () => {
      const listener = createListener(t.handle.notifications?.());
      const heard: Array<string | null> = [];
      await listener.listen('listen_reconnect', (payload) => heard.push(payload));
      try {
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and query = 'listen listen_reconnect'`.execute(t.db);
        await until(() => heard.includes(null), 'the resynchronization signal');
        await notify(t.db, 'listen_reconnect', 'after');
        await until(() => heard.includes('after'), 'a notification after reconnecting');
      } finally {
        await listener.close();
      }
    },
  );
});
