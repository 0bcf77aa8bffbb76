import type { Generated } from 'kysely';

/** An import: the batch id its requests share. */
export interface ImportBatchesTable {
  id: string;
  workspace_id: string;
  created_by: string | null;
  requests: Generated<number>;
  created_at: Generated<Date>;
  last_used_at: Generated<Date>;
}

declare module '../collections/tables.js' {
  interface CollectionsTable {
    /** The origin identity of an imported list (added by the imports module's migration). */
    external_source: string | null;
    external_id: string | null;
  }
}

declare module '../../db/schema.js' {
  interface DB {
    import_batches: ImportBatchesTable;
  }
}
