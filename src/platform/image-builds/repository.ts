import type { Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { BuildStatus, BuildStep, ImageBuildsTable } from './tables.js';

export type ImageBuildRow = Selectable<ImageBuildsTable>;

export interface NewBuild {
  id: string;
  org_id: string;
  project_id: string;
  node_id: string;
  project_version: number;
  base_image: string;
  image: string;
  steps: BuildStep[];
  created_by: string | null;
}

export async function insertBuilds(db: Database, builds: NewBuild[]): Promise<ImageBuildRow[]> {
  if (builds.length === 0) return [];
  return db
    .insertInto('image_builds')
    .values(
      builds.map((build) => ({ ...build, status: 'queued', steps: JSON.stringify(build.steps) })),
    )
    .returningAll()
    .execute();
}

export async function findBuild(db: Database, id: string): Promise<ImageBuildRow | undefined> {
  return db.selectFrom('image_builds').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The project's builds, newest first. */
export async function listBuilds(db: Database, projectId: string): Promise<ImageBuildRow[]> {
  return db
    .selectFrom('image_builds')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export interface BuildProgress {
  status?: BuildStatus;
  steps?: BuildStep[];
  log?: string;
  error?: string | null;
  started_at?: Date;
  finished_at?: Date;
}

/** Writes a build's progress, only while its status is one of `onlyIf` when given; true when written. */
export async function updateBuild(
  db: Database,
  id: string,
  progress: BuildProgress,
  onlyIf?: readonly BuildStatus[],
): Promise<boolean> {
  const { steps, ...rest } = progress;
  const result = await db
    .updateTable('image_builds')
    .set({ ...rest, ...(steps === undefined ? {} : { steps: JSON.stringify(steps) }) })
    .where('id', '=', id)
    .$if(onlyIf !== undefined, (query) => query.where('status', 'in', onlyIf ?? []))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The node's builds still queued or running that were created before `before`. */
export async function unfinishedBuilds(
  db: Database,
  nodeId: string,
  before: Date,
): Promise<ImageBuildRow[]> {
  return db
    .selectFrom('image_builds')
    .selectAll()
    .where('node_id', '=', nodeId)
    .where('status', 'in', ['queued', 'running'])
    .where('created_at', '<', before)
    .execute();
}

/**
 * Images of the project's earlier successful builds on the build's node,
 * newest first, past the `keep` newest of them.
 */
export async function earlierImages(
  db: Database,
  build: Pick<ImageBuildRow, 'id' | 'project_id' | 'node_id'>,
  keep: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('image_builds')
    .select('image')
    .where('project_id', '=', build.project_id)
    .where('node_id', '=', build.node_id)
    .where('status', '=', 'succeeded')
    .where('id', '!=', build.id)
    .orderBy('finished_at', 'desc')
    .orderBy('id', 'desc')
    .offset(keep)
    .execute();
  return rows.map((row) => row.image);
}
