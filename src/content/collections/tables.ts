import type { ColumnType, Generated } from 'kysely';

export interface CollectionsTable {
  id: string;
  workspace_id: string;
  name: string;
  key_prefix: string;
  description: string | null;
  icon: string | null;
  field_ids: string[];
  group_id: string | null;
  position: number;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface CollectionGroupsTable {
  id: string;
  workspace_id: string;
  name: string;
  position: number;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    collections: CollectionsTable;
    collection_groups: CollectionGroupsTable;
  }
}
