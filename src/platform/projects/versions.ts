import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import { projectInOrg } from './lookup.js';
import type { VersionRow } from './repository.js';
import * as repository from './repository.js';
import type { Project, ProjectVersion, ProjectVersionPage } from './schemas.js';
import { getProject, saveConfig } from './service.js';
import type { ProjectConfig } from './tables.js';

/** A stored configuration, with defaults for fields that later versions of the service add. */
function storedConfig(config: Partial<ProjectConfig> & { name: string }): ProjectConfig {
  return {
    name: config.name,
    description: config.description ?? null,
    repositories: config.repositories ?? [],
    features: config.features ?? {},
    extensions: config.extensions ?? [],
    forwardPorts: config.forwardPorts ?? [],
  };
}

function toVersion(row: VersionRow): ProjectVersion {
  return {
    version: row.version,
    action: row.action,
    restoredFrom: row.restored_from,
    config: storedConfig(row.config),
    createdBy: { userId: row.created_by_user_id, apiKeyId: row.created_by_key_id },
    createdAt: row.created_at.toISOString(),
  };
}

/** Versions newest first, in keyset pages (`before` a version number). */
export async function listVersions(
  db: Database,
  access: OrgAccess,
  projectId: string,
  page: { limit: number; before?: number },
): Promise<ProjectVersionPage> {
  await projectInOrg(db, access, projectId);
  const rows = await repository.listVersions(db, projectId, { ...page, limit: page.limit + 1 });
  const versions = rows.slice(0, page.limit).map(toVersion);
  const last = versions.at(-1);
  return {
    versions,
    nextBefore: rows.length > page.limit && last !== undefined ? last.version : null,
  };
}

async function findVersion(db: Database, projectId: string, version: number): Promise<VersionRow> {
  const row = await repository.findVersion(db, projectId, version);
  if (row === undefined) throw notFound('Version');
  return row;
}

export async function getVersion(
  db: Database,
  access: OrgAccess,
  projectId: string,
  version: number,
): Promise<ProjectVersion> {
  await projectInOrg(db, access, projectId);
  return toVersion(await findVersion(db, projectId, version));
}

/**
 * Makes the configuration of an old version current again, as a new version
 * (action `restore`). Secrets are not versioned: the current ones stay. When
 * the configuration already equals that version, nothing changes.
 */
export async function restoreVersion(
  db: Database,
  access: OrgAccess,
  projectId: string,
  version: number,
): Promise<Project> {
  const row = await projectInOrg(db, access, projectId, true);
  const target = await findVersion(db, projectId, version);
  await saveConfig(db, access, row, storedConfig(target.config), 'restore', version);
  return getProject(db, access, projectId);
}
