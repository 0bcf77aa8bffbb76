import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EncryptedValue } from '../secrets/cipher.js';
import type { FeatureMap, ProjectConfig, RepositoryRef, VersionAction } from './tables.js';

export interface ProjectRow {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  repositories: RepositoryRef[];
  features: FeatureMap;
  extensions: string[];
  forward_ports: number[];
  version: number;
  created_at: Date;
  updated_at: Date;
}

const projectColumns = [
  'id',
  'org_id',
  'name',
  'description',
  'repositories',
  'features',
  'extensions',
  'forward_ports',
  'version',
  'created_at',
  'updated_at',
] as const;

function configColumns(config: ProjectConfig) {
  return {
    name: config.name,
    description: config.description,
    repositories: JSON.stringify(config.repositories),
    features: JSON.stringify(config.features),
    extensions: JSON.stringify(config.extensions),
    forward_ports: JSON.stringify(config.forwardPorts),
  };
}

export async function insertProject(
  db: Database,
  project: { id: string; orgId: string; config: ProjectConfig },
): Promise<ProjectRow> {
  return db
    .insertInto('projects')
    .values({ id: project.id, org_id: project.orgId, version: 1, ...configColumns(project.config) })
    .returning(projectColumns)
    .executeTakeFirstOrThrow();
}

export async function listProjects(db: Database, orgId: string): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .select(projectColumns)
    .where('org_id', '=', orgId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
}

/** The project, if it belongs to this organization; `lock` takes its row lock for a change. */
export async function findProject(
  db: Database,
  orgId: string,
  projectId: string,
  lock = false,
): Promise<ProjectRow | undefined> {
  const query = db
    .selectFrom('projects')
    .select(projectColumns)
    .where('org_id', '=', orgId)
    .where('id', '=', projectId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function updateProject(
  db: Database,
  projectId: string,
  config: ProjectConfig,
  version: number,
): Promise<ProjectRow> {
  return db
    .updateTable('projects')
    .set({ ...configColumns(config), version, updated_at: sql<Date>`now()` })
    .where('id', '=', projectId)
    .returning(projectColumns)
    .executeTakeFirstOrThrow();
}

export async function deleteProject(db: Database, projectId: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}

export interface VersionRow {
  version: number;
  action: VersionAction;
  restored_from: number | null;
  config: ProjectConfig;
  created_by_user_id: string | null;
  created_by_key_id: string | null;
  created_at: Date;
}

const versionColumns = [
  'version',
  'action',
  'restored_from',
  'config',
  'created_by_user_id',
  'created_by_key_id',
  'created_at',
] as const;

export async function insertVersion(
  db: Database,
  version: {
    id: string;
    projectId: string;
    version: number;
    action: VersionAction;
    restoredFrom: number | null;
    config: ProjectConfig;
    userId: string | null;
    keyId: string | null;
  },
): Promise<void> {
  await db
    .insertInto('project_versions')
    .values({
      id: version.id,
      project_id: version.projectId,
      version: version.version,
      action: version.action,
      restored_from: version.restoredFrom,
      config: JSON.stringify(version.config),
      created_by_user_id: version.userId,
      created_by_key_id: version.keyId,
    })
    .execute();
}

/** Versions newest first, `limit` of them, older than `before` when given. */
export async function listVersions(
  db: Database,
  projectId: string,
  page: { limit: number; before?: number },
): Promise<VersionRow[]> {
  let query = db
    .selectFrom('project_versions')
    .select(versionColumns)
    .where('project_id', '=', projectId);
  if (page.before !== undefined) query = query.where('version', '<', page.before);
  return query.orderBy('version', 'desc').limit(page.limit).execute();
}

export async function findVersion(
  db: Database,
  projectId: string,
  version: number,
): Promise<VersionRow | undefined> {
  return db
    .selectFrom('project_versions')
    .select(versionColumns)
    .where('project_id', '=', projectId)
    .where('version', '=', version)
    .executeTakeFirst();
}

export interface SecretRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const secretColumns = ['id', 'name', 'created_at', 'updated_at'] as const;

/** Secret names of a project (never values), by name. */
export async function listSecrets(db: Database, projectId: string): Promise<SecretRow[]> {
  return db
    .selectFrom('project_secrets')
    .select(secretColumns)
    .where('project_id', '=', projectId)
    .orderBy('name')
    .execute();
}

/** Secret names of several projects at once, by project and name. */
export async function listSecretsOfProjects(
  db: Database,
  projectIds: readonly string[],
): Promise<Array<SecretRow & { project_id: string }>> {
  if (projectIds.length === 0) return [];
  return db
    .selectFrom('project_secrets')
    .select([...secretColumns, 'project_id'])
    .where('project_id', 'in', projectIds)
    .orderBy('project_id')
    .orderBy('name')
    .execute();
}

/**
 * Creates the secret or replaces its value, in one statement. A replaced
 * secret keeps its id, so the id returned tells whether it was created.
 */
export async function upsertSecret(
  db: Database,
  secret: { id: string; projectId: string; name: string; value: EncryptedValue },
): Promise<{ row: SecretRow; created: boolean }> {
  const stored = {
    ciphertext: secret.value.ciphertext,
    nonce: secret.value.nonce,
    key_id: secret.value.keyId,
  };
  const row = await db
    .insertInto('project_secrets')
    .values({ id: secret.id, project_id: secret.projectId, name: secret.name, ...stored })
    .onConflict((conflict) =>
      conflict
        .columns(['project_id', 'name'])
        .doUpdateSet({ ...stored, updated_at: sql<Date>`now()` }),
    )
    .returning(secretColumns)
    .executeTakeFirstOrThrow();
  return { row, created: row.id === secret.id };
}

export async function deleteSecretByName(
  db: Database,
  projectId: string,
  name: string,
): Promise<void> {
  await db
    .deleteFrom('project_secrets')
    .where('project_id', '=', projectId)
    .where('name', '=', name)
    .execute();
}

export async function deleteSecretById(
  db: Database,
  projectId: string,
  secretId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('project_secrets')
    .where('project_id', '=', projectId)
    .where('id', '=', secretId)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

export async function countSecrets(db: Database, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('project_secrets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Encrypted values, for decryption where a worker needs them. */
export async function listEncryptedSecrets(db: Database, projectId: string) {
  return db
    .selectFrom('project_secrets')
    .select(['name', 'ciphertext', 'nonce', 'key_id'])
    .where('project_id', '=', projectId)
    .orderBy('name')
    .execute();
}
