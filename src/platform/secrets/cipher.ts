import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { AppError } from '../../http/errors.js';
import type { SecretsKeyring } from './keyring.js';

const ALGORITHM = 'aes-256-gcm';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** A secret value as stored: never the value itself. */
export interface EncryptedValue {
  /** base64 of the ciphertext followed by the 16-byte GCM tag. */
  ciphertext: string;
  /** base64 of the 12-byte random nonce, new for every value written. */
  nonce: string;
  /** Which key encrypted it (see SecretsKeyring.keyId). */
  keyId: string;
}

/**
 * Encrypts one value with AES-256-GCM. `context` names where the value lives
 * (`project:<id>:<name>`) and is authenticated with it, so a ciphertext copied
 * to another row or name does not decrypt.
 */
export function encryptSecret(
  keyring: SecretsKeyring,
  plaintext: string,
  context: string,
): EncryptedValue {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv(ALGORITHM, keyring.key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([
    cipher.update(plaintext, 'utf8'),
    cipher.final(),
    cipher.getAuthTag(),
  ]);
  return {
    ciphertext: body.toString('base64'),
    nonce: nonce.toString('base64'),
    keyId: keyring.keyId,
  };
}

/** Decrypts a stored value; a wrong key, context or altered ciphertext throws (500, logged). */
export function decryptSecret(
  keyring: SecretsKeyring,
  stored: EncryptedValue,
  context: string,
): string {
  if (stored.keyId !== keyring.keyId) {
    throw new AppError(
      'secrets_key_mismatch',
      `A secret was encrypted with key ${stored.keyId}, but the configured SECRETS_KEY is ${keyring.keyId}`,
    );
  }
  const body = Buffer.from(stored.ciphertext, 'base64');
  try {
    const decipher = createDecipheriv(ALGORITHM, keyring.key, Buffer.from(stored.nonce, 'base64'), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    const plaintext = decipher.update(body.subarray(0, body.length - TAG_BYTES));
    return Buffer.concat([plaintext, decipher.final()]).toString('utf8');
  } catch {
    throw new AppError('secret_undecryptable', 'A stored secret failed authentication');
  }
}
