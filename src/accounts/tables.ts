import type { ColumnType, Generated } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  /** Null for accounts created through an identity provider. */
  password_hash: string | null;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token, lowercase hex; the token itself is never stored. */
  token_hash: string;
  created_at: Generated<Date>;
  expires_at: Date;
  revoked_at: Date | null;
}

declare module '../db/schema.js' {
  interface DB {
    users: UsersTable;
    sessions: SessionsTable;
  }
}
