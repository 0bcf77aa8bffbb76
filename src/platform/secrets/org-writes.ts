import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { type OrgAccess, requireAccess } from '../access/org-access.js';
import type { SecretStore } from './store.js';

/**
 * Writing an organization's secrets (of a project, a deployment, a service):
 * owner or admin, and a key needs `secrets:write` besides the route's scope.
 */
export function requireSecretWrite(access: OrgAccess): void {
  requireAccess(access, 'secrets.write', ['secrets:write']);
}

/**
 * Applies the `secrets` of a create or PATCH to a locked owner: a string
 * value creates or replaces, null removes, names not mentioned stay.
 */
export async function applySecretChanges(
  db: Database,
  config: Config,
  access: OrgAccess,
  store: SecretStore,
  ownerId: string,
  changes: readonly { name: string; value: string | null }[],
): Promise<void> {
  if (changes.length === 0) return;
  requireSecretWrite(access);
  await store.applyChanges(db, config, ownerId, changes);
}
