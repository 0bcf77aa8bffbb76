import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { generateToken, hashToken, tokenPreview } from '../../lib/tokens.js';
import type { OrgAccess } from '../access/org-access.js';
import type { OrgKeyPrincipal } from '../access/principal.js';
import type { OrgRole } from '../access/roles.js';
import { isScope } from '../access/scopes.js';
import * as orgs from '../orgs/service.js';
import { canSeeKey, requireKeyCreation, seesEveryKey } from './policy.js';
import type { ApiKeyRow } from './repository.js';
import * as repository from './repository.js';
import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from './schemas.js';

export const API_KEY_PREFIX = 'spk_';

/** The role an organization key acts with: everything but owner-only acts (all of which need a session anyway). */
export const ORG_KEY_ROLE: OrgRole = 'admin';

/** `last_used_at` is written at most this often per key, so that using a key is not a write per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

function isActive(row: ApiKeyRow): boolean {
  return row.revoked_at === null && (row.owner_type === 'org' || row.member_id !== null);
}

function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    ownerType: row.owner_type,
    scopes: row.scopes.filter(isScope),
    tokenPrefix: row.token_prefix,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    revokedAt: row.revoked_at?.toISOString() ?? null,
    active: isActive(row),
  };
}

/** Creates a key; the token is in this answer and nowhere else, ever. */
export async function createKey(
  db: Database,
  access: OrgAccess,
  userId: string,
  input: CreateApiKeyBody,
): Promise<CreatedApiKey> {
  let memberId: string | null = null;
  requireKeyCreation(access, input.ownerType);
  if (input.ownerType === 'user') {
    const membership = await orgs.getMembership(db, access.orgId, userId);
    if (membership === undefined) throw notFound('Organization');
    memberId = membership.id;
  }
  const token = generateToken(API_KEY_PREFIX);
  const row = await repository.insertKey(db, {
    id: newId(),
    org_id: access.orgId,
    name: input.name.trim(),
    owner_type: input.ownerType,
    created_by: userId,
    member_id: memberId,
    scopes: [...input.scopes],
    token_hash: hashToken(token),
    token_prefix: tokenPreview(token, API_KEY_PREFIX),
  });
  return { ...toApiKey(row), token };
}

/** Owners and admins see every key of the organization; other members the keys they created. */
export async function listKeys(db: Database, access: OrgAccess): Promise<ApiKey[]> {
  if (seesEveryKey(access)) {
    return (await repository.listKeys(db, access.orgId)).map(toApiKey);
  }
  if (access.userId === null) return [];
  return (await repository.listKeys(db, access.orgId, access.userId)).map(toApiKey);
}

/**
 * Revokes a key: the next request with its token is 401. The row stays
 * listed. Revoking a revoked key changes nothing. A key the caller cannot
 * see (another member's, for a member) is 404.
 */
export async function revokeKey(db: Database, access: OrgAccess, keyId: string): Promise<void> {
  const row = await repository.findKey(db, access.orgId, keyId);
  if (row === undefined || !canSeeKey(access, row)) throw notFound('API key');
  await repository.revokeKey(db, keyId);
}

/**
 * The principal of an `spk_` token, or null (401) when it is unknown,
 * revoked, or a personal key whose creator has left the organization.
 */
export async function resolveKey(
  db: Database,
  token: string,
  log: FastifyBaseLogger,
): Promise<OrgKeyPrincipal | null> {
  const row = await repository.findLiveKeyByHash(db, hashToken(token));
  if (row === undefined) return null;
  let role = ORG_KEY_ROLE;
  let userId: string | null = null;
  if (row.owner_type === 'user') {
    if (row.member_id === null) return null;
    const membership = await orgs.getMembershipById(db, row.member_id);
    if (membership === undefined || membership.orgId !== row.org_id) return null;
    role = membership.role;
    userId = membership.userId;
  }
  if (
    row.last_used_at === null ||
    Date.now() - row.last_used_at.getTime() >= LAST_USED_RESOLUTION_MS
  ) {
    // Bookkeeping: a failure here must not refuse an otherwise valid request.
    await repository.touchKey(db, row.id).catch((error: unknown) => {
      log.warn({ err: error, keyId: row.id }, 'could not record API key use');
    });
  }
  return {
    kind: 'org_key',
    label: row.name,
    keyId: row.id,
    orgId: row.org_id,
    ownerType: row.owner_type,
    userId,
    role,
    scopes: row.scopes.filter(isScope),
  };
}
