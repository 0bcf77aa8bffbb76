import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OrgApiKeysTable } from './tables.js';

const keyColumns = [
  'id',
  'org_id',
  'name',
  'owner_type',
  'created_by',
  'member_id',
  'scopes',
  'token_prefix',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

/** A key as read: every column but the token hash. */
export type ApiKeyRow = Pick<Selectable<OrgApiKeysTable>, (typeof keyColumns)[number]>;

export async function insertKey(
  db: Database,
  key: Omit<ApiKeyRow, 'created_at' | 'last_used_at' | 'revoked_at'> & { token_hash: string },
): Promise<ApiKeyRow> {
  return db.insertInto('org_api_keys').values(key).returning(keyColumns).executeTakeFirstOrThrow();
}

/** Keys of an organization, newest first; only those of one creator when `createdBy` is given. */
export async function listKeys(
  db: Database,
  orgId: string,
  createdBy?: string,
): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('org_api_keys').select(keyColumns).where('org_id', '=', orgId);
  if (createdBy !== undefined) query = query.where('created_by', '=', createdBy);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function findKey(
  db: Database,
  orgId: string,
  keyId: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('org_api_keys')
    .select(keyColumns)
    .where('org_id', '=', orgId)
    .where('id', '=', keyId)
    .executeTakeFirst();
}

/** The unrevoked key with this token hash. */
export async function findLiveKeyByHash(
  db: Database,
  tokenHash: string,
): Promise<ApiKeyRow | undefined> {
  return db
    .selectFrom('org_api_keys')
    .select(keyColumns)
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Revokes the key; a key already revoked keeps its first revocation time. */
export async function revokeKey(db: Database, keyId: string): Promise<void> {
  await db
    .updateTable('org_api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('id', '=', keyId)
    .execute();
}

export async function touchKey(db: Database, keyId: string): Promise<void> {
  await db
    .updateTable('org_api_keys')
    .set({ last_used_at: sql<Date>`now()` })
    .where('id', '=', keyId)
    .execute();
}
