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

declare module '../../db/schema.js' {
  interface DB {
    instance_secrets: InstanceSecretsTable;
    property_indexes: PropertyIndexesTable;
  }
}
