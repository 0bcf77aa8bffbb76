import type { Generated } from 'kysely';

export interface FilesTable {
  id: string;
  workspace_id: string;
  name: string;
  content_type: string;
  is_image: boolean;
  size: number;
  sha256: string;
  storage_key: string;
  created_by: string | null;
  created_at: Generated<Date>;
  external_source: string | null;
  external_id: string | null;
}

declare module '../../db/schema.js' {
  interface DB {
    files: FilesTable;
  }
}
