import type { ServiceAccessSettings } from '../services/access-settings.js';

/** Why a credential may not reach a private service; null when it may. */
export type Refusal = {
  code: 'service_org_mismatch' | 'missing_scope' | 'not_on_allowlist' | 'not_in_organization';
} | null;

/**
 * Authentication 8, for an API key already known to be live: it belongs to
 * the service's organization, holds `deployments:access` or `*`, and, for a
 * personal key, its owner is on the allowlist (an org key: the scope is enough).
 */
export function keyRefusal(
  settings: ServiceAccessSettings,
  key: {
    orgId: string;
    ownerType: 'user' | 'org';
    userId: string | null;
    scopes: readonly string[];
  },
): Refusal {
  if (key.orgId !== settings.orgId) return { code: 'service_org_mismatch' };
  if (!key.scopes.includes('*') && !key.scopes.includes('deployments:access')) {
    return { code: 'missing_scope' };
  }
  if (key.ownerType === 'org') return null;
  if (key.userId === null || !settings.allowlist.includes(key.userId)) {
    return { code: 'not_on_allowlist' };
  }
  return null;
}

/**
 * A person with a browser (our choice; the spec names the allowlist for
 * personal keys only): a member of the service's organization, who must be
 * on the allowlist when it names anyone; an empty allowlist lets every member in.
 */
export function personRefusal(
  settings: ServiceAccessSettings,
  userId: string,
  isMember: boolean,
): Refusal {
  if (!isMember) return { code: 'not_in_organization' };
  if (settings.allowlist.length > 0 && !settings.allowlist.includes(userId)) {
    return { code: 'not_on_allowlist' };
  }
  return null;
}

export const REFUSAL_MESSAGES: Record<NonNullable<Refusal>['code'], string> = {
  service_org_mismatch: "The key belongs to another organization than the service's",
  missing_scope: 'The key needs the scope deployments:access (or *) to reach a private service',
  not_on_allowlist: "The key's owner is not on the service's allowlist",
  not_in_organization: "You are not a member of the service's organization",
};
