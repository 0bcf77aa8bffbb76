import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { announceRoutes } from '../routing/targets.js';
import type { JobRunKind, JobRunStatus, JobRunsTable } from '../job-runs/tables.js';
import type { ServiceRow } from './service-repository.js';
import type { ServiceState } from './tables.js';

export type RunRow = Selectable<JobRunsTable>;

export async function insertRun(
  db: Database,
  service: ServiceRow,
  run: { kind: JobRunKind; image?: string | null; parentId?: string; jobName?: string },
): Promise<RunRow> {
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

export async function findRun(db: Database, runId: string): Promise<RunRow | undefined> {
  return db.selectFrom('job_runs').selectAll().where('id', '=', runId).executeTakeFirst();
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

export async function lockService(
  db: Database,
  serviceId: string,
): Promise<ServiceRow | undefined> {
  return db
    .selectFrom('services')
    .selectAll()
    .where('id', '=', serviceId)
    .forUpdate()
    .executeTakeFirst();
}

export async function setServiceState(
  db: Database,
  serviceId: string,
  state: ServiceState,
  reason: string | null,
  extra: { active_run_id?: string | null } = {},
): Promise<void> {
  await db
    .updateTable('services')
    .set({ state, state_reason: reason, ...extra, updated_at: sql<Date>`now()` })
    .where('id', '=', serviceId)
    .execute();
}

/** Whether a move of the service was asked after this job (it then decides the service's state). */
export async function laterMove(db: Database, serviceId: string, jobId: string): Promise<boolean> {
  const row = await db
    .selectFrom('jobs')
    .select('id')
    .where('target_id', '=', serviceId)
    .where('state', 'in', ['queued', 'running'])
    .where('id', '>', jobId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The replicas serving a service changed: every process's proxy reads them again, at commit. */
export async function targetsChanged(db: Database, serviceId: string): Promise<void> {
  await announceRoutes(db, serviceId);
}

export async function findServiceById(
  db: Database,
  serviceId: string,
): Promise<ServiceRow | undefined> {
  return db.selectFrom('services').selectAll().where('id', '=', serviceId).executeTakeFirst();
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
