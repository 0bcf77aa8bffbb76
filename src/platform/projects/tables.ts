import type { ColumnType, Generated } from 'kysely';
import type { EncryptedSecretsTable } from '../secrets/store.js';

export interface RepositoryRef {
  url: string;
  branch: string | null;
}

/** Dev container features: feature id to its options. */
export type FeatureMap = Record<string, Record<string, string | boolean>>;

/** A project's configuration: what a version records (never secret values). */
export interface ProjectConfig {
  name: string;
  description: string | null;
  repositories: RepositoryRef[];
  features: FeatureMap;
  extensions: string[];
  forwardPorts: number[];
}

/** A jsonb column: read as the value, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

export interface ProjectsTable {
  id: string;
  org_id: string;
  name: string;
  description: string | null;
  repositories: Json<RepositoryRef[]>;
  features: Json<FeatureMap>;
  extensions: Json<string[]>;
  forward_ports: Json<number[]>;
  /** The number of the latest version. */
  version: number;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type VersionAction = 'create' | 'update' | 'restore';

export interface ProjectVersionsTable {
  id: string;
  project_id: string;
  version: number;
  action: VersionAction;
  restored_from: number | null;
  config: Json<ProjectConfig>;
  created_by_user_id: string | null;
  created_by_key_id: string | null;
  created_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    projects: ProjectsTable;
    /** `owner_id` is the project. */
    project_secrets: EncryptedSecretsTable;
    project_versions: ProjectVersionsTable;
  }
}
