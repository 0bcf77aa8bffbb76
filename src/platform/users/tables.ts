import type { ColumnType, Generated } from 'kysely';

/** Per-user settings of the development platform; a user without a row has the defaults. */
export interface UserSettingsTable {
  user_id: string;
  dotfiles_repo: string | null;
  /** jsonb: read as the list, written as JSON text. */
  extensions: ColumnType<string[], string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** A secret value encrypted with AES-256-GCM (see platform/secrets); never the value itself. */
export interface UserSecretsTable {
  id: string;
  user_id: string;
  name: string;
  ciphertext: string;
  nonce: string;
  key_id: string;
  created_at: Generated<Date>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    user_settings: UserSettingsTable;
    user_secrets: UserSecretsTable;
  }
}
