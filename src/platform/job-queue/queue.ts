import type { Selectable } from 'kysely';
import { notify } from '../../db/listen.js';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import type { JobsTable } from './tables.js';

export type JobRow = Selectable<JobsTable>;

/** Wakes the runners: the payload is the node id, or {@link ANYWHERE} for a job without a node. */
export const JOBS_CHANNEL = 'sparrow_jobs';
/** A job finished: the payload is its id. */
export const JOBS_DONE_CHANNEL = 'sparrow_jobs_done';
/** The wake-up payload of a job any process may run. */
export const ANYWHERE = '*';

export interface NewJob {
  kind: string;
  /** Null: any server process runs it (a kind registered with `registerAnywhere`). */
  nodeId: string | null;
  targetId: string;
  payload?: Record<string, unknown>;
}

/**
 * Queues a job with the caller's handle: written in the transaction that
 * makes the state change it carries out, so either both exist or neither.
 * The runners are woken when the transaction commits.
 */
export async function enqueueJob(db: Database, job: NewJob): Promise<JobRow> {
  const row = await db
    .insertInto('jobs')
    .values({
      id: newId(),
      kind: job.kind,
      node_id: job.nodeId,
      target_id: job.targetId,
      payload: JSON.stringify(job.payload ?? {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await notify(db, JOBS_CHANNEL, job.nodeId ?? ANYWHERE);
  return row;
}

export async function findJob(db: Database, jobId: string): Promise<JobRow | undefined> {
  return db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
}

/** Whether the target has a job not finished yet. */
export async function openJobTargets(
  db: Database,
  targetIds: readonly string[],
): Promise<Set<string>> {
  if (targetIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('jobs')
    .select('target_id')
    .where('target_id', 'in', targetIds)
    .where('state', 'in', ['queued', 'running'])
    .execute();
  return new Set(rows.map((row) => row.target_id));
}
