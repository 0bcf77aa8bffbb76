import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EncryptedValue } from '../secrets/cipher.js';

export interface SettingsRow {
  dotfiles_repo: string | null;
  extensions: string[];
}

export async function findSettings(db: Database, userId: string): Promise<SettingsRow | undefined> {
  return db
    .selectFrom('user_settings')
    .select(['dotfiles_repo', 'extensions'])
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
    .select(['dotfiles_repo', 'extensions'])
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
    .returning(['dotfiles_repo', 'extensions'])
    .executeTakeFirstOrThrow();
}

export interface SecretRow {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

const secretColumns = ['id', 'name', 'created_at', 'updated_at'] as const;

export async function listSecrets(db: Database, userId: string): Promise<SecretRow[]> {
  return db
    .selectFrom('user_secrets')
    .select(secretColumns)
    .where('user_id', '=', userId)
    .orderBy('name')
    .execute();
}

/**
 * Creates the secret or replaces its value, in one statement. A replaced
 * secret keeps its id, so the id returned tells whether it was created.
 */
export async function upsertSecret(
  db: Database,
  secret: { id: string; userId: string; name: string; value: EncryptedValue },
): Promise<{ row: SecretRow; created: boolean }> {
  const stored = {
    ciphertext: secret.value.ciphertext,
    nonce: secret.value.nonce,
    key_id: secret.value.keyId,
  };
  const row = await db
    .insertInto('user_secrets')
    .values({ id: secret.id, user_id: secret.userId, name: secret.name, ...stored })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'name'])
        .doUpdateSet({ ...stored, updated_at: sql<Date>`now()` }),
    )
    .returning(secretColumns)
    .executeTakeFirstOrThrow();
  return { row, created: row.id === secret.id };
}

export async function deleteSecret(
  db: Database,
  userId: string,
  secretId: string,
): Promise<boolean> {
  const deleted = await db
    .deleteFrom('user_secrets')
    .where('user_id', '=', userId)
    .where('id', '=', secretId)
    .returning('id')
    .executeTakeFirst();
  return deleted !== undefined;
}

export async function countSecrets(db: Database, userId: string): Promise<number> {
  const row = await db
    .selectFrom('user_secrets')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function listEncryptedSecrets(db: Database, userId: string) {
  return db
    .selectFrom('user_secrets')
    .select(['name', 'ciphertext', 'nonce', 'key_id'])
    .where('user_id', '=', userId)
    .orderBy('name')
    .execute();
}
