import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import type { SecretInfo, SetSecretBody } from '../common/schemas.js';
import { requireSecretWrite } from '../secrets/org-writes.js';
import { secretStore } from '../secrets/store.js';
import { projectInOrg } from './lookup.js';
import * as repository from './repository.js';
import { MAX_PROJECT_SECRETS } from './schemas.js';

/** Project secrets: `project_secrets`, each ciphertext bound to its project and name. */
export const projectSecrets = secretStore({
  table: 'project_secrets',
  context: 'project-secret',
  max: MAX_PROJECT_SECRETS,
  ownerLabel: 'A project',
});

export async function listProjectSecrets(
  db: Database,
  access: OrgAccess,
  projectId: string,
): Promise<SecretInfo[]> {
  await projectInOrg(db, access, projectId);
  return projectSecrets.list(db, projectId);
}

/** Creates or replaces one secret by name; `created` tells which. */
export async function setProjectSecret(
  db: Database,
  config: Config,
  access: OrgAccess,
  projectId: string,
  input: SetSecretBody,
): Promise<{ secret: SecretInfo; created: boolean }> {
  requireSecretWrite(access);
  await projectInOrg(db, access, projectId, true);
  const result = await projectSecrets.write(db, config, projectId, input.name, input.value);
  await projectSecrets.ensureWithinLimit(db, projectId);
  return result;
}

export async function deleteProjectSecret(
  db: Database,
  access: OrgAccess,
  projectId: string,
  secretId: string,
): Promise<void> {
  requireSecretWrite(access);
  await projectInOrg(db, access, projectId, true);
  if (!(await projectSecrets.removeById(db, projectId, secretId))) throw notFound('Secret');
}

/**
 * The decrypted secrets of a project, by name, for the code that starts a
 * worker. No route calls this: values never leave the server through the API.
 */
export async function decryptProjectSecrets(
  db: Database,
  config: Config,
  orgId: string,
  projectId: string,
): Promise<Array<{ name: string; value: string }>> {
  const project = await repository.findProject(db, orgId, projectId);
  if (project === undefined) throw notFound('Project');
  return projectSecrets.decrypt(db, config, projectId);
}
