import type { BasePrincipal } from '../../http/principal.js';
import type { OrgRole } from './roles.js';
import type { Scope } from './scopes.js';

/** A request made with an organization API key (`spk_...`). */
export interface OrgKeyPrincipal extends BasePrincipal {
  kind: 'org_key';
  keyId: string;
  /** The one organization the key works in. */
  orgId: string;
  ownerType: 'user' | 'org';
  /** The creator a personal (`user`) key acts as; null for an organization key. */
  userId: string | null;
  /** The role the key acts with: its creator's current role, or ORG_KEY_ROLE. */
  role: OrgRole;
  scopes: readonly Scope[];
}

declare module '../../http/principal.js' {
  interface PrincipalKinds {
    org_key: OrgKeyPrincipal;
  }
}
