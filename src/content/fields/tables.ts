import type { ColumnType, Generated } from 'kysely';
import type { FieldConfig } from './schemas.js';

export interface FieldsTable {
  id: string;
  workspace_id: string;
  key: string;
  type: string;
  name: string;
  config: FieldConfig;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Bumped by triggers on every change of a workspace's fields, statuses or lists. */
export interface RegistryVersionsTable {
  workspace_id: string;
  version: number;
}

declare module '../../db/schema.js' {
  interface DB {
    fields: FieldsTable;
    registry_versions: RegistryVersionsTable;
  }
}
