import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { announceRoutes } from '../routing/targets.js';
import type { ServiceRow } from './repository.js';
import type { ServiceState } from './tables.js';

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
