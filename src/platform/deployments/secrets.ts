import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { type OrgAccess, requireAccess } from '../access/org-access.js';
import { secretStore } from '../secrets/store.js';
import { MAX_DEPLOYMENT_SECRETS } from './schemas.js';

export const MAX_SERVICE_SECRETS = 100;

/** Deployment secrets: every service of the deployment gets them. */
export const deploymentSecrets = secretStore({
  table: 'deployment_secrets',
  context: 'deployment-secret',
  max: MAX_DEPLOYMENT_SECRETS,
  ownerLabel: 'A deployment',
});

/** A service's own secrets, which override its deployment's of the same name. */
export const serviceSecrets = secretStore({
  table: 'service_secrets',
  context: 'service-secret',
  max: MAX_SERVICE_SECRETS,
  ownerLabel: 'A service',
});

/**
 * Applies secret changes to a locked deployment or service. Writing secrets
 * is for owners and admins, and a key needs `secrets:write` besides
 * `deployments:write`, as for project secrets.
 */
export async function applySecrets(
  db: Database,
  config: Config,
  access: OrgAccess,
  store: typeof deploymentSecrets,
  ownerId: string,
  changes: readonly { name: string; value: string | null }[],
): Promise<void> {
  if (changes.length === 0) return;
  requireAccess(access, 'secrets:write', ['secrets:write']);
  await store.applyChanges(db, config, ownerId, changes);
}
