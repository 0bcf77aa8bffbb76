import type { ColumnType, Generated } from 'kysely';
import type { ViewDisplay } from './schemas.js';

export interface CollectionViewsTable {
  id: string;
  workspace_id: string;
  collection_id: string;
  name: string;
  definition: Record<string, unknown>;
  display: ViewDisplay;
  /** Registry fields the definition and display name, kept for "is this field used" checks. */
  field_ids: string[];
  position: number;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    collection_views: CollectionViewsTable;
  }
}
