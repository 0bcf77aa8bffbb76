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

declare module '../../db/schema.js' {
  interface DB {
    fields: FieldsTable;
  }
}
