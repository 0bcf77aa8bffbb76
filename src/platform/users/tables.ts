import type { ColumnType } from 'kysely';
import type { EncryptedSecretsTable } from '../secrets/store.js';

/** Per-user settings of the development platform; a user without a row has the defaults. */
export interface UserSettingsTable {
  user_id: string;
  dotfiles_repo: string | null;
  /** jsonb: read as the list, written as JSON text. */
  extensions: ColumnType<string[], string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

declare module '../../db/schema.js' {
  interface DB {
    user_settings: UserSettingsTable;
    /** `owner_id` is the user. */
    user_secrets: EncryptedSecretsTable;
  }
}
