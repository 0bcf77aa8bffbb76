import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import type { ProjectRow } from './repository.js';
import * as repository from './repository.js';

/**
 * The project if it belongs to the caller's organization, else 404 (a project
 * of another organization looks like none). `lock` takes its row lock: every
 * change to a project, its secrets or its versions holds it.
 */
export async function projectInOrg(
  db: Database,
  access: OrgAccess,
  projectId: string,
  lock = false,
): Promise<ProjectRow> {
  const row = await repository.findProject(db, access.orgId, projectId, lock);
  if (row === undefined) throw notFound('Project');
  return row;
}
