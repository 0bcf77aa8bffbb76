import type { Config } from '../../config.js';
import { isPgError, isUniqueViolation, PG_FOREIGN_KEY_VIOLATION } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { OrgAccess } from '../access/org-access.js';
import { patchText, sameJson } from '../common/patch.js';
import type { SecretInfo } from '../common/schemas.js';
import { applySecretChanges } from '../secrets/org-writes.js';
import { projectInOrg } from './lookup.js';
import type { ProjectRow } from './repository.js';
import * as repository from './repository.js';
import type { CreateProjectBody, Project, UpdateProjectBody } from './schemas.js';
import { projectSecrets } from './secrets.js';
import type { ProjectConfig, RepositoryRef, VersionAction } from './tables.js';

export function configOf(row: ProjectRow): ProjectConfig {
  return {
    name: row.name,
    description: row.description,
    repositories: row.repositories,
    features: row.features,
    extensions: row.extensions,
    forwardPorts: row.forward_ports,
  };
}

function toProject(row: ProjectRow, secrets: SecretInfo[]): Project {
  return {
    id: row.id,
    orgId: row.org_id,
    ...configOf(row),
    secrets,
    version: row.version,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

async function withSecrets(db: Database, row: ProjectRow): Promise<Project> {
  return toProject(row, await projectSecrets.list(db, row.id));
}

function repositoriesOf(
  input: readonly { url: string; branch?: string | null }[],
): RepositoryRef[] {
  const seen = new Set<string>();
  return input.map(({ url, branch }) => {
    if (seen.has(url)) {
      throw badRequest('duplicate_repository', `The repository ${url} is listed twice`, { url });
    }
    seen.add(url);
    return { url, branch: branch ?? null };
  });
}

/** PATCH: only fields sent change; lists are replaced whole; blank text clears to null. */
function patched(current: ProjectConfig, input: UpdateProjectBody): ProjectConfig {
  const description = patchText(input.description);
  return {
    name: input.name?.trim() ?? current.name,
    description: description === undefined ? current.description : description,
    repositories:
      input.repositories === undefined ? current.repositories : repositoriesOf(input.repositories),
    features: input.features ?? current.features,
    extensions: input.extensions ?? current.extensions,
    forwardPorts: input.forwardPorts ?? current.forwardPorts,
  };
}

function nameTaken(error: unknown): unknown {
  return isUniqueViolation(error, 'projects_org_name_key')
    ? conflict('project_name_taken', 'Another project of this organization has this name')
    : error;
}

function recordVersion(
  db: Database,
  access: OrgAccess,
  projectId: string,
  version: { number: number; action: VersionAction; config: ProjectConfig; restoredFrom?: number },
): Promise<void> {
  return repository.insertVersion(db, {
    id: newId(),
    projectId,
    version: version.number,
    action: version.action,
    restoredFrom: version.restoredFrom ?? null,
    config: version.config,
    userId: access.userId,
    keyId: access.keyId,
  });
}

/**
 * Stores a new configuration as the next version, when it differs from the
 * current one; an unchanged configuration makes no version.
 */
export async function saveConfig(
  db: Database,
  access: OrgAccess,
  row: ProjectRow,
  next: ProjectConfig,
  action: VersionAction,
  restoredFrom?: number,
): Promise<ProjectRow> {
  if (sameJson(configOf(row), next)) return row;
  const number = row.version + 1;
  const updated = await repository.updateProject(db, row.id, next, number).catch((error) => {
    throw nameTaken(error);
  });
  await recordVersion(db, access, row.id, { number, action, config: next, restoredFrom });
  return updated;
}

export async function listProjects(db: Database, access: OrgAccess): Promise<Project[]> {
  const rows = await repository.listProjects(db, access.orgId);
  const secrets = await projectSecrets.listOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toProject(row, secrets.get(row.id) ?? []));
}

export async function getProject(
  db: Database,
  access: OrgAccess,
  projectId: string,
): Promise<Project> {
  return withSecrets(db, await projectInOrg(db, access, projectId));
}

export async function createProject(
  db: Database,
  config: Config,
  access: OrgAccess,
  input: CreateProjectBody,
): Promise<Project> {
  const projectConfig: ProjectConfig = {
    name: input.name.trim(),
    description: patchText(input.description) ?? null,
    repositories: repositoriesOf(input.repositories ?? []),
    features: input.features ?? {},
    extensions: input.extensions ?? [],
    forwardPorts: input.forwardPorts ?? [],
  };
  const id = newId();
  const row = await repository
    .insertProject(db, { id, orgId: access.orgId, config: projectConfig })
    .catch((error) => {
      throw nameTaken(error);
    });
  await recordVersion(db, access, id, { number: 1, action: 'create', config: projectConfig });
  await applySecretChanges(db, config, access, projectSecrets, id, input.secrets ?? []);
  return withSecrets(db, row);
}

/** Applies a PATCH: configuration changes make a version, secret changes do not. */
export async function updateProject(
  db: Database,
  config: Config,
  access: OrgAccess,
  projectId: string,
  input: UpdateProjectBody,
): Promise<Project> {
  const row = await projectInOrg(db, access, projectId, true);
  const saved = await saveConfig(db, access, row, patched(configOf(row), input), 'update');
  await applySecretChanges(db, config, access, projectSecrets, projectId, input.secrets ?? []);
  return withSecrets(db, saved);
}

export async function deleteProject(
  db: Database,
  access: OrgAccess,
  projectId: string,
): Promise<void> {
  await projectInOrg(db, access, projectId, true);
  try {
    await repository.deleteProject(db, projectId);
  } catch (error) {
    // Rows of other modules (workers) that must go first.
    if (isPgError(error) && error.code === PG_FOREIGN_KEY_VIOLATION) {
      throw conflict('project_in_use', 'The project still has workers: delete them first', {
        projectId,
      });
    }
    throw error;
  }
}
