import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Config, ConfigError, decodeSecretsKey, SECRETS_KEY_BYTES } from '../../config.js';

/** The key that encrypts stored secrets, with the id stored beside each ciphertext. */
export interface SecretsKeyring {
  /** A fingerprint of the key (not the key): tells which key a value was encrypted with. */
  keyId: string;
  key: Buffer;
}

export const SECRETS_KEY_FILE = 'secrets.key';

function keyId(key: Buffer): string {
  return createHash('sha256')
    .update('sparrow secrets key id\0')
    .update(key)
    .digest('hex')
    .slice(0, 16);
}

function isFileError(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}

async function readKeyFile(path: string): Promise<Buffer | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isFileError(error, 'ENOENT')) return null;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError('SECRETS_KEY', `not set, and ${path} cannot be read: ${reason}`);
  }
  const key = decodeSecretsKey(text);
  if (key === null) {
    throw new ConfigError(
      'SECRETS_KEY',
      `${path} does not hold a valid ${SECRETS_KEY_BYTES}-byte key`,
    );
  }
  return key;
}

/**
 * The key in `DATA_DIR/secrets.key`, created (mode 0600) when absent. The file
 * is created exclusively, so two processes starting at once agree on one key.
 */
async function keyFromDataDir(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, SECRETS_KEY_FILE);
  const existing = await readKeyFile(path);
  if (existing !== null) return existing;
  const key = randomBytes(SECRETS_KEY_BYTES);
  try {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path, `${key.toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    return key;
  } catch (error) {
    if (isFileError(error, 'EEXIST')) {
      const winner = await readKeyFile(path);
      if (winner !== null) return winner;
    }
    throw new ConfigError(
      'SECRETS_KEY',
      `not set, and ${path} could not be created: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * By configuration object, not process-wide: each app loads its own, so two
 * apps share a keyring only when they share their configuration, whose key
 * (or key file) it is. What it saves is reading that file on every use.
 */
const keyrings = new WeakMap<Config, Promise<SecretsKeyring>>();

/** The secrets key of this configuration: SECRETS_KEY, else the data folder's key file. */
export function secretsKeyring(config: Config): Promise<SecretsKeyring> {
  let keyring = keyrings.get(config);
  if (keyring === undefined) {
    keyring = (
      config.secretsKey === null
        ? keyFromDataDir(config.dataDir)
        : Promise.resolve(config.secretsKey)
    ).then((key) => ({ key, keyId: keyId(key) }));
    // A failure is not remembered: the next use tries again.
    keyring.catch(() => keyrings.delete(config));
    keyrings.set(config, keyring);
  }
  return keyring;
}
