import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { forbidden, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken, tokenPreview } from '../../lib/tokens.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { atLeast, isRole, lowerRole, type Role } from '../access/roles.js';
import type { WorkspaceKeyPrincipal } from './principal.js';
import type { CreatedWorkspaceApiKey, CreateWorkspaceApiKey, WorkspaceApiKey } from './schemas.js';

export const WORKSPACE_KEY_PREFIX = 'swk_';

const columns = [
  'id',
  'name',
  'role',
  'token_prefix',
  'created_by',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;

interface KeyRow {
  id: string;
  name: string;
  role: string;
  token_prefix: string;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

function toKey(row: KeyRow): WorkspaceApiKey {
  return {
    id: row.id,
    name: row.name,
    role: row.role as Role,
    tokenPrefix: row.token_prefix,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
  };
}

export async function createKey(
  db: Database,
  access: WorkspaceAccess,
  input: CreateWorkspaceApiKey,
): Promise<CreatedWorkspaceApiKey> {
  if (!atLeast(access.role, input.role)) {
    throw forbidden('role_above_creator', 'A key cannot have a higher role than its creator', {
      role: input.role,
      creatorRole: access.role,
    });
  }
  const token = generateToken(WORKSPACE_KEY_PREFIX);
  const row = await db
    .insertInto('workspace_api_keys')
    .values({
      id: newId(),
      workspace_id: access.workspaceId,
      name: input.name.trim(),
      role: input.role,
      token_hash: hashToken(token),
      token_prefix: tokenPreview(token, WORKSPACE_KEY_PREFIX),
      created_by: access.userId,
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { ...toKey(row), token };
}

export async function listKeys(db: Database, workspaceId: string): Promise<WorkspaceApiKey[]> {
  const rows = await db
    .selectFrom('workspace_api_keys')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(toKey);
}

/** Revokes a key; the row stays listed with its revocation time. Revoking again changes nothing. */
export async function revokeKey(db: Database, workspaceId: string, keyId: string): Promise<void> {
  const row = await db
    .updateTable('workspace_api_keys')
    .set({ revoked_at: sql<Date>`coalesce(revoked_at, now())` })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .returning('id')
    .executeTakeFirst();
  if (row === undefined) throw notFound('API key');
}

/**
 * The principal of a live key. Its role is the lower of its own and its
 * creator's current role; a key whose creator left the workspace stops working.
 */
export async function resolveKey(
  db: Database,
  token: string,
): Promise<WorkspaceKeyPrincipal | null> {
  const row = await db
    .selectFrom('workspace_api_keys as keys')
    .innerJoin('workspace_members as members', (join) =>
      join
        .onRef('members.workspace_id', '=', 'keys.workspace_id')
        .onRef('members.user_id', '=', 'keys.created_by'),
    )
    .select([
      'keys.id',
      'keys.name',
      'keys.role',
      'keys.workspace_id',
      'keys.created_by',
      'keys.last_used_at',
      'members.role as creator_role',
    ])
    .where('keys.token_hash', '=', hashToken(token))
    .where('keys.revoked_at', 'is', null)
    .executeTakeFirst();
  if (row === undefined || !isRole(row.role) || !isRole(row.creator_role)) return null;
  if (row.last_used_at === null || Date.now() - row.last_used_at.getTime() > 60_000) {
    await db
      .updateTable('workspace_api_keys')
      .set({ last_used_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
  }
  return {
    kind: 'workspace_key',
    label: row.name,
    keyId: row.id,
    workspaceId: row.workspace_id,
    role: lowerRole(row.role, row.creator_role),
    userId: row.created_by,
    actor: { kind: 'api_key', label: row.name, apiKeyId: row.id },
  };
}
