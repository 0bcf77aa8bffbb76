import * as accounts from '../../accounts/service.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { patchText } from '../common/patch.js';
import type { SecretInfo, SetSecretBody } from '../common/schemas.js';
import { secretStore } from '../secrets/store.js';
import type { SettingsRow } from './repository.js';
import * as repository from './repository.js';
import { MAX_USER_SECRETS, type UpdateMeBody, type UserMe } from './schemas.js';

const DEFAULT_SETTINGS: SettingsRow = { dotfiles_repo: null, extensions: [] };

async function toUserMe(db: Database, userId: string, settings: SettingsRow): Promise<UserMe> {
  const user = await accounts.getUser(db, userId);
  return { ...user, dotfilesRepo: settings.dotfiles_repo, extensions: settings.extensions };
}

export async function getMe(db: Database, userId: string): Promise<UserMe> {
  const settings = (await repository.findSettings(db, userId)) ?? DEFAULT_SETTINGS;
  return toUserMe(db, userId, settings);
}

/** PATCH: only fields sent change; a blank `dotfilesRepo` clears it; `extensions` is replaced whole. */
export async function updateMe(db: Database, userId: string, input: UpdateMeBody): Promise<UserMe> {
  const current = await repository.lockSettings(db, userId);
  const dotfilesRepo = patchText(input.dotfilesRepo);
  const settings = await repository.updateSettings(db, userId, {
    dotfiles_repo: dotfilesRepo === undefined ? current.dotfiles_repo : dotfilesRepo,
    extensions: input.extensions ?? current.extensions,
  });
  return toUserMe(db, userId, settings);
}

/** User secrets: `user_secrets`, each ciphertext bound to its user and name. */
const userSecrets = secretStore({
  table: 'user_secrets',
  context: 'user-secret',
  max: MAX_USER_SECRETS,
  ownerLabel: 'An account',
});

export async function listSecrets(db: Database, userId: string): Promise<SecretInfo[]> {
  return userSecrets.list(db, userId);
}

/** Creates or replaces a secret by name; `created` tells which. The value is never returned. */
export async function setSecret(
  db: Database,
  config: Config,
  userId: string,
  input: SetSecretBody,
): Promise<{ secret: SecretInfo; created: boolean }> {
  const result = await userSecrets.write(db, config, userId, input.name, input.value);
  await userSecrets.ensureWithinLimit(db, userId);
  return result;
}

export async function deleteSecret(db: Database, userId: string, secretId: string): Promise<void> {
  if (!(await userSecrets.removeById(db, userId, secretId))) throw notFound('Secret');
}

/**
 * The decrypted secrets of a user, by name, for the code that starts that
 * user's worker. No route calls this: values never leave through the API.
 */
export async function decryptUserSecrets(
  db: Database,
  config: Config,
  userId: string,
): Promise<Array<{ name: string; value: string }>> {
  return userSecrets.decrypt(db, config, userId);
}
