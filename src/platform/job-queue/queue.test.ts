import { describe, expect, it } from 'vitest';
import { useDatabase } from '../../../test/fixtures/database.js';
import { until } from '../../../test/helpers/wait.js';
import { createListener } from '../../db/listen.js';
import { newId } from '../../lib/ids.js';
import { ANYWHERE, enqueueJob, findJob, JOBS_CHANNEL, openJobTargets } from './queue.js';

const t = useDatabase();

/** The job queue's rules on the database alone: no runner claims these jobs. */
describe('the job queue', () => {
  it('queues with the caller’s transaction: a rolled-back job neither exists nor wakes a runner', async () => {
    const listener = createListener(t.handle.notifications?.());
    const heard: Array<string | null> = [];
    await listener.listen(JOBS_CHANNEL, (payload) => heard.push(payload));
    try {
      const lost = newId();
      await t.db
        .transaction()
        .execute(async (tx) => {
          await enqueueJob(tx, { kind: 'test.queue', nodeId: null, targetId: lost });
          throw new Error('roll back');
        })
        .catch(() => {});
      const kept = await t.db
        .transaction()
        .execute((tx) => enqueueJob(tx, { kind: 'test.queue', nodeId: null, targetId: newId() }));
      expect(kept).toMatchObject({ kind: 'test.queue', node_id: null, state: 'queued' });
      expect(await findJob(t.db, kept.id)).toMatchObject({ id: kept.id, payload: {} });
      expect(
        await t.db.selectFrom('jobs').select('id').where('target_id', '=', lost).execute(),
      ).toEqual([]);
      if (t.handle.notifications !== undefined) {
        await until(() => heard.length > 0, 'the wake-up of the committed job');
        expect(heard).toEqual([ANYWHERE]);
      }
    } finally {
      await listener.close();
    }
  });

  it('tells which targets have a job not finished yet', async () => {
    const open = newId();
    const done = newId();
    const idle = newId();
    await enqueueJob(t.db, { kind: 'test.queue', nodeId: null, targetId: open });
    const finished = await enqueueJob(t.db, { kind: 'test.queue', nodeId: null, targetId: done });
    await t.db
      .updateTable('jobs')
      .set({ state: 'succeeded' })
      .where('id', '=', finished.id)
      .execute();
    expect(await openJobTargets(t.db, [open, done, idle])).toEqual(new Set([open]));
    expect(await openJobTargets(t.db, [])).toEqual(new Set());
  });
});
