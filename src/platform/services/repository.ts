import { type Selectable, sql } from 'kysely';
import { likePattern } from '../../db/like.js';
import type { Database } from '../../db/schema.js';
import type { EnvMap } from '../deployments/tables.js';
import type {
  CronJob,
  CustomDomain,
  HealthCheck,
  PreDeployHook,
  ServiceSource,
  ServiceState,
  ServicesTable,
} from './tables.js';

export type ServiceRow = Selectable<ServicesTable>;

/** What a create or PATCH sets on a service. */
export interface ServiceFields {
  name: string;
  source: ServiceSource;
  command: string | null;
  port: number | null;
  env: EnvMap;
  replicas: number;
  healthCheck: HealthCheck | null;
  accessControl: 'public' | 'private';
  allowlist: string[];
  customDomain: CustomDomain | null;
  preDeploy: PreDeployHook | null;
  cronJobs: CronJob[];
}

function nullableJson(value: unknown): string | null {
  return value === null ? null : JSON.stringify(value);
}

function columns(fields: ServiceFields) {
  return {
    name: fields.name,
    source: JSON.stringify(fields.source),
    command: fields.command,
    port: fields.port,
    env: JSON.stringify(fields.env),
    replicas: fields.replicas,
    health_check: nullableJson(fields.healthCheck),
    access_control: fields.accessControl,
    allowlist: JSON.stringify(fields.allowlist),
    custom_domain: nullableJson(fields.customDomain),
    pre_deploy: nullableJson(fields.preDeploy),
    cron_jobs: JSON.stringify(fields.cronJobs),
  };
}

export async function insertService(
  db: Database,
  row: { id: string; orgId: string; deploymentId: string } & ServiceFields,
): Promise<ServiceRow> {
  return db
    .insertInto('services')
    .values({ id: row.id, org_id: row.orgId, deployment_id: row.deploymentId, ...columns(row) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Services by name: of one deployment, or of the whole organization; `q` filters by name. */
export async function listServices(
  db: Database,
  where: { orgId: string; deploymentId?: string; nameContains?: string },
): Promise<ServiceRow[]> {
  return db
    .selectFrom('services')
    .selectAll()
    .where('org_id', '=', where.orgId)
    .$if(where.deploymentId !== undefined, (query) =>
      query.where('deployment_id', '=', where.deploymentId ?? ''),
    )
    .$if(where.nameContains !== undefined, (query) =>
      query.where(sql<boolean>`name ilike ${likePattern(where.nameContains ?? '')}`),
    )
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

export async function findService(
  db: Database,
  where: { orgId: string; deploymentId: string; serviceId: string },
  lock = false,
): Promise<ServiceRow | undefined> {
  const query = db
    .selectFrom('services')
    .selectAll()
    .where('org_id', '=', where.orgId)
    .where('deployment_id', '=', where.deploymentId)
    .where('id', '=', where.serviceId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function updateService(
  db: Database,
  serviceId: string,
  fields: ServiceFields,
): Promise<ServiceRow> {
  return db
    .updateTable('services')
    .set({ ...columns(fields), updated_at: sql<Date>`now()` })
    .where('id', '=', serviceId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteService(db: Database, serviceId: string): Promise<void> {
  await db.deleteFrom('services').where('id', '=', serviceId).execute();
}

/** The states of each deployment's services. */
export async function serviceStatesOf(
  db: Database,
  deploymentIds: readonly string[],
): Promise<Map<string, ServiceState[]>> {
  const states = new Map<string, ServiceState[]>();
  if (deploymentIds.length === 0) return states;
  const rows = await db
    .selectFrom('services')
    .select(['deployment_id', 'state'])
    .where('deployment_id', 'in', deploymentIds)
    .execute();
  for (const row of rows) {
    states.set(row.deployment_id, [...(states.get(row.deployment_id) ?? []), row.state]);
  }
  return states;
}
