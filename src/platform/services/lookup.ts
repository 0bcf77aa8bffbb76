import type { Database } from '../../db/schema.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { type OrgAccess, requireAccess } from '../access/org-access.js';
import type { OrgPermission } from '../access/roles.js';
import * as orgs from '../orgs/service.js';
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
 * `/api/services/{id}`), with the caller's access to its organization and
 * the permission checked: 404 for a service the caller cannot see.
 */
export async function serviceForCaller(
  db: Database,
  principal: Principal,
  serviceId: string,
  permission: OrgPermission,
): Promise<{ row: ServiceRow; access: OrgAccess }> {
  const row = await db
    .selectFrom('services')
    .selectAll()
    .where('id', '=', serviceId)
    .executeTakeFirst();
  if (row === undefined) throw notFound('Service');
  let access: OrgAccess;
  try {
    access = await orgs.orgAccess(db, principal, row.org_id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw notFound('Service');
    throw error;
  }
  requireAccess(access, permission);
  return { row, access };
}
