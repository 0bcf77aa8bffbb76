import type { Generated } from 'kysely';

export interface WorkspaceInvitationsTable {
  id: string;
  workspace_id: string;
  /** The address the invitation is for; compared case-insensitively. */
  email: string;
  role: string;
  /** SHA-256 of the token; the token itself is shown once. */
  token_hash: string;
  token_prefix: string;
  created_by: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
  accepted_at: Date | null;
  accepted_by: string | null;
}

declare module '../../db/schema.js' {
  interface DB {
    workspace_invitations: WorkspaceInvitationsTable;
  }
}
