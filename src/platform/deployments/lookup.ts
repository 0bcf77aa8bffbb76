import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import type { DeploymentRow } from './repository.js';
import * as repository from './repository.js';

/**
 * The deployment if it belongs to the caller's organization, else 404; `lock` for a change.
 * Apart from service.ts: moves.ts needs it and service.ts calls moves.ts, so
 * here neither imports the other (no import cycle).
 */
export async function deploymentInOrg(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
  lock = false,
): Promise<DeploymentRow> {
  const row = await repository.findDeployment(db, access.orgId, deploymentId, lock);
  if (row === undefined) throw notFound('Deployment');
  return row;
}
