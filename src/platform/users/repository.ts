import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { UserSettingsTable } from './tables.js';

const settingsColumns = ['dotfiles_repo', 'extensions'] as const;

/** The settings a user edits (not the owner or the time of the last change). */
export type SettingsRow = Pick<Selectable<UserSettingsTable>, (typeof settingsColumns)[number]>;

export async function findSettings(db: Database, userId: string): Promise<SettingsRow | undefined> {
  return db
    .selectFrom('user_settings')
    .select(settingsColumns)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/**
 * The user's settings row, created with the defaults when missing, and locked
 * so that two concurrent PATCHes do not overwrite each other's fields.
 */
export async function lockSettings(db: Database, userId: string): Promise<SettingsRow> {
  await db
    .insertInto('user_settings')
    .values({ user_id: userId, extensions: '[]' })
    .onConflict((conflict) => conflict.column('user_id').doNothing())
    .execute();
  return db
    .selectFrom('user_settings')
    .select(settingsColumns)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function updateSettings(
  db: Database,
  userId: string,
  settings: SettingsRow,
): Promise<SettingsRow> {
  return db
    .updateTable('user_settings')
    .set({
      dotfiles_repo: settings.dotfiles_repo,
      extensions: JSON.stringify(settings.extensions),
      updated_at: sql<Date>`now()`,
    })
    .where('user_id', '=', userId)
    .returning(settingsColumns)
    .executeTakeFirstOrThrow();
}
