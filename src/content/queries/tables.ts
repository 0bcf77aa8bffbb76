import type { Generated } from 'kysely';

/** Secrets shared by every server process (cursor signing), made on first use. */
export interface InstanceSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

/** Per-property-key indexes on items, built in the background without blocking writes. */
export interface PropertyIndexesTable {
  key: string;
  variant: string;
  state: string;
  error: string | null;
  requested_at: Generated<Date>;
  built_at: Date | null;
}

/**
 * The select, multi-select, person and multi-person values of active cards,
 * one row per value (null: none), kept by triggers (`2026_11_25_301_item_values`).
 */
export interface ItemValuesTable {
  item_id: string;
  collection_id: string;
  field_id: string;
  value: string | null;
}

/** Fields whose `item_values` rows a background task is still filling in. */
export interface ItemValueBackfillsTable {
  field_id: string;
  workspace_id: string;
  after_id: string | null;
  requested_at: Generated<Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    instance_secrets: InstanceSecretsTable;
    property_indexes: PropertyIndexesTable;
    item_values: ItemValuesTable;
    item_value_backfills: ItemValueBackfillsTable;
  }
}
