import type { ColumnType, Generated } from 'kysely';
import type { BlockDocument } from './block-schemas.js';

export interface ItemsTable {
  id: string;
  workspace_id: string;
  /** The home collection: its key prefix and the item number make the readable key. */
  collection_id: string;
  number: number;
  title: string;
  status_id: string;
  parent_id: string | null;
  properties: ColumnType<
    Record<string, unknown>,
    Record<string, unknown> | undefined,
    Record<string, unknown>
  >;
  blocks: ColumnType<BlockDocument, BlockDocument | undefined, BlockDocument>;
  /** The text projection of the blocks (Markdown). */
  body: ColumnType<string, string | undefined, string>;
  icon: string | null;
  /** Manual order within the home collection: a fractional key compared bytewise. */
  sort_key: string;
  archived_at: Date | null;
  created_by: string | null;
  external_source: string | null;
  external_id: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ItemCollectionsTable {
  item_id: string;
  collection_id: string;
  workspace_id: string;
  created_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    items: ItemsTable;
    item_collections: ItemCollectionsTable;
  }
}
