import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type {
  ProjectConfig,
  ProjectsTable,
  ProjectVersionsTable,
  VersionAction,
} from './tables.js';

/** A project as stored: every column, JSON ones parsed. */
export type ProjectRow = Selectable<ProjectsTable>;

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
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listProjects(db: Database, orgId: string): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .selectAll()
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
    .selectAll()
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
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteProject(db: Database, projectId: string): Promise<void> {
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
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

/** A version as read: its columns but the ids of the row and of the project. */
export type VersionRow = Pick<Selectable<ProjectVersionsTable>, (typeof versionColumns)[number]>;

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
