import type { ColumnType, Generated } from 'kysely';

export interface StatusesTable {
  id: string;
  workspace_id: string;
  name: string;
  color: string;
  category: string;
  position: number;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    statuses: StatusesTable;
  }
}
