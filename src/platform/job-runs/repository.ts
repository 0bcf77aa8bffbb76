import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import type { JobRunKind, JobRunStatus, JobRunsTable } from './tables.js';

export type JobRunRow = Selectable<JobRunsTable>;

export interface RunFilter {
  orgId: string;
  deploymentId: string;
  serviceId?: string;
  kinds?: readonly JobRunKind[];
  statuses?: readonly JobRunStatus[];
}

/** A run of this list (same deployment, and service when given), for a `before` cursor. */
export async function findRunIn(
  db: Database,
  filter: RunFilter,
  runId: string,
): Promise<JobRunRow | undefined> {
  return db
    .selectFrom('job_runs')
    .selectAll()
    .where('id', '=', runId)
    .where('org_id', '=', filter.orgId)
    .where('deployment_id', '=', filter.deploymentId)
    .$if(filter.serviceId !== undefined, (query) =>
      query.where('service_id', '=', filter.serviceId ?? ''),
    )
    .executeTakeFirst();
}

/** Runs newest first (creation time, then id), `limit` of them, older than `before` when given. */
export async function listRuns(
  db: Database,
  filter: RunFilter,
  page: { limit: number; before?: JobRunRow },
): Promise<JobRunRow[]> {
  const { kinds, statuses } = filter;
  const { before } = page;
  return db
    .selectFrom('job_runs')
    .selectAll()
    .where('org_id', '=', filter.orgId)
    .where('deployment_id', '=', filter.deploymentId)
    .$if(filter.serviceId !== undefined, (query) =>
      query.where('service_id', '=', filter.serviceId ?? ''),
    )
    .$if(kinds !== undefined && kinds.length > 0, (query) => query.where('kind', 'in', kinds ?? []))
    .$if(statuses !== undefined && statuses.length > 0, (query) =>
      query.where('status', 'in', statuses ?? []),
    )
    .$if(before !== undefined, (query) =>
      query.where(
        // Read back from the row: a JavaScript date would drop the microseconds.
        sql<boolean>`(created_at, id) < (select b.created_at, b.id from job_runs b where b.id = ${before?.id ?? null})`,
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit)
    .execute();
}

/** A run by id, whatever its organization (the caller checks access). */
export async function findRun(db: Database, runId: string): Promise<JobRunRow | undefined> {
  return db.selectFrom('job_runs').selectAll().where('id', '=', runId).executeTakeFirst();
}

/** The service a run belongs to (its row's ids). */
export interface RunOwner {
  id: string;
  org_id: string;
  deployment_id: string;
}

export async function insertRun(
  db: Database,
  service: RunOwner,
  run: { kind: JobRunKind; image?: string | null; parentId?: string; jobName?: string },
): Promise<JobRunRow> {
  return db
    .insertInto('job_runs')
    .values({
      id: newId(),
      org_id: service.org_id,
      deployment_id: service.deployment_id,
      service_id: service.id,
      kind: run.kind,
      image: run.image ?? null,
      parent_id: run.parentId ?? null,
      job_name: run.jobName ?? null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The run of a cron job's tick, or undefined when that tick already has one:
 * `ON CONFLICT DO NOTHING` on the (service, job, tick) index, so of the
 * processes that schedule the same tick only the first inserts it.
 */
export async function insertCronTick(
  db: Database,
  service: RunOwner,
  tick: { jobName: string; scheduledAt: Date },
): Promise<string | undefined> {
  const run = await db
    .insertInto('job_runs')
    .values({
      id: newId(),
      org_id: service.org_id,
      deployment_id: service.deployment_id,
      service_id: service.id,
      kind: 'cron',
      job_name: tick.jobName,
      scheduled_at: tick.scheduledAt,
    })
    .onConflict((oc) =>
      oc.columns(['service_id', 'job_name', 'scheduled_at']).where('kind', '=', 'cron').doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  return run?.id;
}

export async function startRun(db: Database, runId: string, image?: string): Promise<void> {
  await db
    .updateTable('job_runs')
    .set({
      status: 'running',
      started_at: sql<Date>`coalesce(started_at, now())`,
      ...(image === undefined ? {} : { image }),
    })
    .where('id', '=', runId)
    .execute();
}

/** Ends a run that has not ended yet; false when it had. */
export async function endRun(
  db: Database,
  runId: string,
  end: {
    status: Extract<JobRunStatus, 'succeeded' | 'failed' | 'cancelled'>;
    reason?: string | null;
    exitCode?: number | null;
  },
): Promise<boolean> {
  const ended = await db
    .updateTable('job_runs')
    .set({
      status: end.status,
      reason: end.reason ?? null,
      exit_code: end.exitCode ?? null,
      started_at: sql<Date>`coalesce(started_at, now())`,
      ended_at: sql<Date>`now()`,
    })
    .where('id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .returning('id')
    .executeTakeFirst();
  return ended !== undefined;
}

/** Drops what an interrupted attempt of a run wrote, so the next one writes it from the start. */
export async function resetOutput(db: Database, runId: string): Promise<void> {
  await db.deleteFrom('job_run_output').where('run_id', '=', runId).execute();
  await db
    .updateTable('job_runs')
    .set({ output_bytes: 0, output_truncated: false })
    .where('id', '=', runId)
    .execute();
}

/** Ends the runs under a deploy (its hook) that an interrupted attempt left open. */
export async function cancelChildren(db: Database, runId: string, reason: string): Promise<void> {
  await db
    .updateTable('job_runs')
    .set({ status: 'cancelled', reason, ended_at: sql<Date>`now()` })
    .where('parent_id', '=', runId)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** The image a deploy recorded: `runId` names one of the service's runs; else the last one that succeeded. */
export async function recordedImage(
  db: Database,
  serviceId: string,
  runId?: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('job_runs')
    .select('image')
    .where('service_id', '=', serviceId)
    .where('kind', '=', 'deploy')
    .where('image', 'is not', null)
    .$if(runId === undefined, (query) => query.where('status', '=', 'succeeded'))
    .$if(runId !== undefined, (query) => query.where('id', '=', runId ?? ''))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.image ?? undefined;
}

/** Whether a deploy of this service recorded the image. */
export async function imageWasDeployed(db: Database, serviceId: string, image: string) {
  const row = await db
    .selectFrom('job_runs')
    .select('id')
    .where('service_id', '=', serviceId)
    .where('kind', '=', 'deploy')
    .where('image', '=', image)
    .executeTakeFirst();
  return row !== undefined;
}
