import type { OrgAccess } from '../access/org-access.js';
import { requireRole, roleCan } from '../access/roles.js';
import type { ApiKeyRow } from './repository.js';

/**
 * Every member creates personal keys and sees and revokes their own
 * (`api_keys.use`, which the key routes declare); an organization key needs
 * `api_keys.create_org_key`, and seeing others' keys `api_keys.manage_all`.
 */
export function requireKeyCreation(access: OrgAccess, ownerType: 'user' | 'org'): void {
  if (ownerType === 'org') requireRole(access.role, 'api_keys.create_org_key');
}

/** Whether the caller sees every key of the organization, not only their own. */
export function seesEveryKey(access: OrgAccess): boolean {
  return roleCan(access.role, 'api_keys.manage_all');
}

/** Whether the caller may see (and so revoke) this key. */
export function canSeeKey(access: OrgAccess, key: Pick<ApiKeyRow, 'created_by'>): boolean {
  return seesEveryKey(access) || key.created_by === access.userId;
}
