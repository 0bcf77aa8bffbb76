import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
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
