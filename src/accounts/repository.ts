import { type Selectable, sql } from 'kysely';
import { PREPARED } from '../db/prepared.js';
import type { Database } from '../db/schema.js';
import type { UsersTable } from './tables.js';

const userColumns = ['id', 'email', 'name', 'password_hash', 'created_at'] as const;

/** An account as read: every column but `updated_at`. */
export type UserRow = Pick<Selectable<UsersTable>, (typeof userColumns)[number]>;

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(userColumns)
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(userColumns).where('id', '=', id).executeTakeFirst();
}

export async function anyUserExists(db: Database): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(
  db: Database,
  user: Pick<UsersTable, 'id' | 'email' | 'name' | 'password_hash'>,
): Promise<UserRow> {
  return db.insertInto('users').values(user).returning(userColumns).executeTakeFirstOrThrow();
}

export async function insertSession(
  db: Database,
  session: { id: string; userId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('sessions')
    .values({
      id: session.id,
      user_id: session.userId,
      token_hash: session.tokenHash,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** The live session for a token hash, with the label of its user. */
/** Run by every signed-in request: a prepared statement (planned once per connection). */
export async function findLiveSession(db: Database, tokenHash: string) {
  const { rows } = await sql<{ id: string; user_id: string; name: string }>`${PREPARED}
    select sessions.id, sessions.user_id, users.name from sessions
    join users on users.id = sessions.user_id
    where sessions.token_hash = ${tokenHash} and sessions.revoked_at is null and sessions.expires_at > now()`.execute(
    db,
  );
  return rows[0];
}

/** Marks the session of this token hash revoked; false when no such session exists. */
export async function revokeSessionByHash(db: Database, tokenHash: string): Promise<boolean> {
  const found = await db
    .updateTable('sessions')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('token_hash', '=', tokenHash)
    .returning('id')
    .executeTakeFirst();
  return found !== undefined;
}

export async function findUsersByIds(db: Database, ids: readonly string[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(userColumns).where('id', 'in', ids).execute();
}
