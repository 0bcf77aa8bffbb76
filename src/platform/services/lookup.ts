import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import type { ServiceRow } from './repository.js';
import * as repository from './repository.js';

/**
 * The service if it belongs to this deployment of the caller's organization,
 * else 404; `lock` takes its row lock for the rest of the transaction.
 */
export async function serviceInDeployment(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
  serviceId: string,
  lock = false,
): Promise<ServiceRow> {
  const row = await repository.findService(
    db,
    { orgId: access.orgId, deploymentId, serviceId },
    lock,
  );
  if (row === undefined) throw notFound('Service');
  return row;
}

/**
 * A service named by its id alone (the live endpoints under
 * `/api/services/{id}`), of any organization: the socket routes check the
 * caller's access to its organization (`socketRoutes`).
 */
export async function serviceById(
  db: Database,
  serviceId: string,
): Promise<ServiceRow | undefined> {
  return db.selectFrom('services').selectAll().where('id', '=', serviceId).executeTakeFirst();
}

/** These services of the organization (ids it does not hold are left out), by id. */
export async function servicesOfOrg(
  db: Database,
  orgId: string,
  serviceIds: readonly string[],
): Promise<Map<string, Pick<ServiceRow, 'id' | 'deployment_id' | 'name' | 'state'>>> {
  if (serviceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('services')
    .innerJoin('deployments', 'deployments.id', 'services.deployment_id')
    .select(['services.id', 'services.deployment_id', 'services.name', 'services.state'])
    .where('deployments.org_id', '=', orgId)
    .where('services.id', 'in', serviceIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}
