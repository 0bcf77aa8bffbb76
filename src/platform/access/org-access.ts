import { type OrgPermission, type OrgRole, requireRole } from './roles.js';
import { requireScopes, type Scope } from './scopes.js';

/**
 * Who is acting in an organization, as services see it: the role to check
 * permissions against and, for an API key, the scopes to check on top.
 */
export interface OrgAccess {
  orgId: string;
  role: OrgRole;
  /** The person acting: the signed-in user or a personal key's creator; null for an org key. */
  userId: string | null;
  /** The API key making the request; null for a session. */
  keyId: string | null;
  /** The key's scopes; null for a session, which is never scoped. */
  scopes: readonly Scope[] | null;
}

/**
 * Throws 403 unless the caller's role has the permission and, for a key,
 * the key holds these scopes (beyond those the route table already checked).
 */
export function requireAccess(
  access: OrgAccess,
  permission: OrgPermission,
  scopes: readonly Scope[] = [],
): void {
  if (access.scopes !== null) requireScopes(access.scopes, scopes);
  requireRole(access.role, permission);
}
