import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app.js';
import { anotherProcess } from '../../../test/helpers/processes.js';
import { pollFor } from '../../../test/helpers/wait.js';
import type { BuiltApp } from '../../app.js';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import type { AppContext } from '../../module.js';
import { enqueueJob } from './queue.js';

const KIND = 'test.anywhere';

/**
 * Jobs without a node: several applications on one database stand for
 * several server processes, each with its own runner; any of them may claim
 * such a job, and exactly one does.
 */
describe('jobs run anywhere', () => {
  let t: TestApp;
  const others: BuiltApp[] = [];
  /** Each run, as the process that ran it signs it. */
  const runs: { jobId: string; owner: string }[] = [];
  // A lease long enough that a loaded machine (PGlite shares the one thread) never lets one run out.
  const env = { JOB_LEASE_MS: '10000', JOB_POLL_MS: '100' };

  async function another(): Promise<BuiltApp> {
    const built = await anotherProcess(t);
    await built.app.ready();
    others.push(built);
    return built;
  }

  function recordRuns(ctx: AppContext, name = KIND): void {
    const owner = ctx.agents.processId;
    ctx.jobs.kinds.registerAnywhere(name, {
      run: async (job) => {
        runs.push({ jobId: job.id, owner });
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
      },
      fail: async () => {},
    });
  }

  beforeAll(async () => {
    t = await createTestApp(env);
    await t.app.ready();
    recordRuns(t.ctx);
    for (let i = 0; i < 2; i++) recordRuns((await another()).ctx);
  });
  afterAll(async () => {
    for (const built of others) await built.app.close();
    await t.close();
  });

  async function states(ids: readonly string[]) {
    return t.db
      .selectFrom('jobs')
      .select(['id', 'state', 'attempts'])
      .where('id', 'in', ids)
      .execute();
  }

  it('runs each job exactly once across three runners, over many rounds', async () => {
    for (let round = 0; round < 8; round++) {
      const ids = await inTransaction(t.db, async (trx) => {
        const made: string[] = [];
        for (let i = 0; i < 12; i++) {
          const job = await enqueueJob(trx, { kind: KIND, nodeId: null, targetId: newId() });
          made.push(job.id);
        }
        return made;
      });
      await pollFor(
        async () =>
          (await states(ids)).every((row) => row.state === 'succeeded') ? true : undefined,
        30_000,
        `round ${round} finished`,
      );
      for (const id of ids) expect(runs.filter((run) => run.jobId === id)).toHaveLength(1);
      expect((await states(ids)).every((row) => row.attempts === 1)).toBe(true);
    }
  });

  it('takes over a job whose process died once its lease ran out', async () => {
    const jobId = newId();
    await t.db
      .insertInto('jobs')
      .values({
        id: jobId,
        kind: KIND,
        node_id: null,
        target_id: newId(),
        state: 'running',
        attempts: 1,
        lease_owner: newId(),
        lease_expires_at: sql<Date>`now() + interval '800 milliseconds'`,
      })
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 400));
    // Still under the dead process's lease: nobody touches it.
    expect(runs.filter((run) => run.jobId === jobId)).toHaveLength(0);
    await pollFor(
      async () => ((await states([jobId]))[0]?.state === 'succeeded' ? true : undefined),
      20_000,
      'taken over',
    );
    expect(await states([jobId])).toEqual([{ id: jobId, state: 'succeeded', attempts: 2 }]);
    expect(runs.filter((run) => run.jobId === jobId)).toHaveLength(1);
  });

  it('hands a job over at once when its process stops, and lets go of a job whose lease was taken', async () => {
    const leaving = await another();
    const leavingOwner = leaving.ctx.agents.processId;
    const seen: { owner: string; aborted: boolean }[] = [];
    // Only the leaving process knows the kind at first, so it claims the job.
    leaving.ctx.jobs.kinds.registerAnywhere('test.handover', {
      run: (_job, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            seen.push({ owner: leavingOwner, aborted: true });
            reject(new Error('let go'));
          });
        }),
      fail: async () => {},
    });
    const job = await enqueueJob(t.db, { kind: 'test.handover', nodeId: null, targetId: newId() });
    await pollFor(
      async () => {
        const row = await t.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', job.id)
          .executeTakeFirst();
        return row?.lease_owner === leavingOwner ? true : undefined;
      },
      20_000,
      'claimed by the leaving process',
    );
    recordRuns(t.ctx, 'test.handover');
    const started = Date.now();
    await leaving.app.close();
    others.splice(others.indexOf(leaving), 1);
    await pollFor(
      async () => ((await states([job.id]))[0]?.state === 'succeeded' ? true : undefined),
      20_000,
      'handed over',
    );
    expect(seen).toEqual([{ owner: leavingOwner, aborted: true }]);
    expect(runs.filter((run) => run.jobId === job.id)).toEqual([
      { jobId: job.id, owner: t.ctx.agents.processId },
    ]);
    // Handed back, not left to its lease.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('lets go of a job whose lease another process took', async () => {
    let aborted = false;
    t.ctx.jobs.kinds.registerAnywhere('test.lost', {
      run: (_job, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('let go'));
          });
        }),
      fail: async () => {},
    });
    const owner = t.ctx.agents.processId;
    const job = await enqueueJob(t.db, { kind: 'test.lost', nodeId: null, targetId: newId() });
    await pollFor(
      async () => {
        const row = await t.db
          .selectFrom('jobs')
          .selectAll()
          .where('id', '=', job.id)
          .executeTakeFirst();
        return row?.lease_owner === owner ? true : undefined;
      },
      20_000,
      'claimed',
    );
    const taker = newId();
    await t.db.updateTable('jobs').set({ lease_owner: taker }).where('id', '=', job.id).execute();
    await pollFor(async () => (aborted ? true : undefined), 20_000, 'let go');
    // The taker's claim stands: the process that let go wrote nothing over it.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const row = await t.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'running', lease_owner: taker });
    await t.db
      .updateTable('jobs')
      .set({ state: 'failed', lease_owner: null })
      .where('id', '=', job.id)
      .execute();
  });
});
