import type { SecretInfo } from '../common/schemas.js';
import { decryptSecret } from './cipher.js';
import type { SecretsKeyring } from './keyring.js';

/** The columns every secrets table shares (project and user secrets). */
export interface SecretRecord {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface EncryptedRecord {
  name: string;
  ciphertext: string;
  nonce: string;
  key_id: string;
}

/** A secret as routes show it: never its value. */
export function toSecretInfo(row: SecretRecord): SecretInfo {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** Decrypts stored secrets; `context` gives the associated data each was encrypted with. */
export function decryptRecords(
  keyring: SecretsKeyring,
  rows: readonly EncryptedRecord[],
  context: (name: string) => string,
): Array<{ name: string; value: string }> {
  return rows.map((row) => ({
    name: row.name,
    value: decryptSecret(
      keyring,
      { ciphertext: row.ciphertext, nonce: row.nonce, keyId: row.key_id },
      context(row.name),
    ),
  }));
}
