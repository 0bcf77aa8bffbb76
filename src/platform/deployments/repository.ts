import { type Selectable, sql } from 'kysely';
import { likePattern } from '../../db/like.js';
import type { Database } from '../../db/schema.js';
import type { DeploymentsTable, EnvMap } from './tables.js';

export type DeploymentRow = Selectable<DeploymentsTable>;

export interface DeploymentFields {
  name: string;
  description: string | null;
  env: EnvMap;
}

function columns(fields: DeploymentFields) {
  return { name: fields.name, description: fields.description, env: JSON.stringify(fields.env) };
}

export async function insertDeployment(
  db: Database,
  row: { id: string; orgId: string } & DeploymentFields,
): Promise<DeploymentRow> {
  return db
    .insertInto('deployments')
    .values({ id: row.id, org_id: row.orgId, ...columns(row) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listDeployments(
  db: Database,
  orgId: string,
  nameContains?: string,
): Promise<DeploymentRow[]> {
  return db
    .selectFrom('deployments')
    .selectAll()
    .where('org_id', '=', orgId)
    .$if(nameContains !== undefined, (query) =>
      query.where(sql<boolean>`name ilike ${likePattern(nameContains ?? '')}`),
    )
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/** The deployment, if it belongs to this organization; `lock` takes its row lock for a change. */
export async function findDeployment(
  db: Database,
  orgId: string,
  deploymentId: string,
  lock = false,
): Promise<DeploymentRow | undefined> {
  const query = db
    .selectFrom('deployments')
    .selectAll()
    .where('org_id', '=', orgId)
    .where('id', '=', deploymentId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function updateDeployment(
  db: Database,
  deploymentId: string,
  fields: DeploymentFields,
): Promise<DeploymentRow> {
  return db
    .updateTable('deployments')
    .set({ ...columns(fields), updated_at: sql<Date>`now()` })
    .where('id', '=', deploymentId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteDeployment(db: Database, deploymentId: string): Promise<void> {
  await db.deleteFrom('deployments').where('id', '=', deploymentId).execute();
}
