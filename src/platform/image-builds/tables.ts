import type { ColumnType, Generated } from 'kysely';

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string | undefined, string>;

export const BUILD_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type BuildStatus = (typeof BUILD_STATUSES)[number];

export const STEP_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'skipped'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export interface BuildStep {
  name: string;
  status: StepStatus;
  startedAt: string | null;
  finishedAt: string | null;
  message: string | null;
}

/** One pre-build of a project's image on one node. */
export interface ImageBuildsTable {
  id: string;
  org_id: string;
  project_id: string;
  node_id: string;
  /** The project version built: the image is current while the project stays at it. */
  project_version: number;
  /** The image built from (`WORKER_IMAGE` then). */
  base_image: string;
  /** The image made: `localhost/sparrow/project-<projectId>:v<version>-<buildId>`. */
  image: string;
  status: BuildStatus;
  steps: Json<BuildStep[]>;
  log: Generated<string>;
  error: string | null;
  created_by: string | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

declare module '../../db/schema.js' {
  interface DB {
    image_builds: ImageBuildsTable;
  }
}
