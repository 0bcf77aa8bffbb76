import type { Generated } from 'kysely';

export interface WorkspaceApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  role: string;
  token_hash: string;
  token_prefix: string;
  created_by: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

declare module '../../db/schema.js' {
  interface DB {
    workspace_api_keys: WorkspaceApiKeysTable;
  }
}
