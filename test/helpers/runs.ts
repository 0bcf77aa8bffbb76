import type { Database } from '../../src/db/schema.js';
import { eventually } from './engine.js';

/** Waits (up to two minutes) until a job run has succeeded or failed; its row. */
export function endedRun(db: Database, runId: string, what = `run ${runId} ended`) {
  return eventually(
    async () => {
      const row = await db
        .selectFrom('job_runs')
        .selectAll()
        .where('id', '=', runId)
        .executeTakeFirst();
      return row !== undefined && ['succeeded', 'failed'].includes(row.status) ? row : undefined;
    },
    120_000,
    what,
  );
}
