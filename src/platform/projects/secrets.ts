import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { type OrgAccess, requireAccess } from '../access/org-access.js';
import type { SecretInfo, SetSecretBody } from '../common/schemas.js';
import { encryptSecret } from '../secrets/cipher.js';
import { secretsKeyring } from '../secrets/keyring.js';
import { decryptRecords, toSecretInfo } from '../secrets/records.js';
import { projectInOrg } from './lookup.js';
import type { SecretRow } from './repository.js';
import * as repository from './repository.js';
import { MAX_PROJECT_SECRETS } from './schemas.js';

/** Binds each ciphertext to its project and name (the AES-GCM associated data). */
function secretContext(projectId: string, name: string): string {
  return `project-secret:${projectId}:${name}`;
}

/** Writing project secrets: owner or admin, and a key needs `secrets:write` (spec, PATCH semantics 4). */
function requireSecretWrite(access: OrgAccess): void {
  requireAccess(access, 'secrets:write', ['secrets:write']);
}

async function ensureWithinLimit(db: Database, projectId: string): Promise<void> {
  if ((await repository.countSecrets(db, projectId)) > MAX_PROJECT_SECRETS) {
    throw badRequest('too_many_secrets', `A project holds at most ${MAX_PROJECT_SECRETS} secrets`, {
      max: MAX_PROJECT_SECRETS,
    });
  }
}

async function writeSecret(
  db: Database,
  config: Config,
  projectId: string,
  name: string,
  value: string,
): Promise<{ row: SecretRow; created: boolean }> {
  const keyring = await secretsKeyring(config);
  return repository.upsertSecret(db, {
    id: newId(),
    projectId,
    name,
    value: encryptSecret(keyring, value, secretContext(projectId, name)),
  });
}

/**
 * Applies the `secrets` of a project create or PATCH to a locked project: a
 * string value creates or replaces, null removes, names not mentioned stay.
 */
export async function applySecretChanges(
  db: Database,
  config: Config,
  access: OrgAccess,
  projectId: string,
  changes: readonly { name: string; value: string | null }[],
): Promise<void> {
  if (changes.length === 0) return;
  requireSecretWrite(access);
  const names = new Set<string>();
  for (const { name } of changes) {
    if (names.has(name)) {
      throw badRequest('duplicate_secret_name', `The secret ${name} is changed twice`, { name });
    }
    names.add(name);
  }
  for (const { name, value } of changes) {
    if (value === null) await repository.deleteSecretByName(db, projectId, name);
    else await writeSecret(db, config, projectId, name, value);
  }
  await ensureWithinLimit(db, projectId);
}

export async function listProjectSecrets(
  db: Database,
  access: OrgAccess,
  projectId: string,
): Promise<SecretInfo[]> {
  requireAccess(access, 'projects:read');
  await projectInOrg(db, access, projectId);
  return (await repository.listSecrets(db, projectId)).map(toSecretInfo);
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
  const { row, created } = await writeSecret(db, config, projectId, input.name, input.value);
  await ensureWithinLimit(db, projectId);
  return { secret: toSecretInfo(row), created };
}

export async function deleteProjectSecret(
  db: Database,
  access: OrgAccess,
  projectId: string,
  secretId: string,
): Promise<void> {
  requireSecretWrite(access);
  await projectInOrg(db, access, projectId, true);
  if (!(await repository.deleteSecretById(db, projectId, secretId))) throw notFound('Secret');
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
  const rows = await repository.listEncryptedSecrets(db, projectId);
  if (rows.length === 0) return [];
  const keyring = await secretsKeyring(config);
  return decryptRecords(keyring, rows, (name) => secretContext(projectId, name));
}
