import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * scrypt at the OWASP Password Storage Cheat Sheet's recommendation:
 * N = 2^17, r = 8, p = 1 (128 MiB and a few hundred milliseconds per hash).
 * The parameters are stored with each hash, so they can be raised later.
 */
const COST_LOG2 = 17;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const MAX_MEMORY = 256 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

interface ScryptParameters {
  costLog2: number;
  blockSize: number;
  parallelism: number;
}

function derive(password: string, salt: Buffer, params: ScryptParameters, length: number) {
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      length,
      { N: 2 ** params.costLog2, r: params.blockSize, p: params.parallelism, maxmem: MAX_MEMORY },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });
}

/** Format: `scrypt$<log2 N>$<r>$<p>$<salt base64>$<key base64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const params = { costLog2: COST_LOG2, blockSize: BLOCK_SIZE, parallelism: PARALLELISM };
  const key = await derive(password, salt, params, KEY_LENGTH);
  return [
    'scrypt',
    COST_LOG2,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64'),
    key.toString('base64'),
  ].join('$');
}

function parse(stored: string) {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [costLog2, blockSize, parallelism] = parts.slice(1, 4).map(Number);
  if (costLog2 === undefined || blockSize === undefined || parallelism === undefined) return null;
  return {
    params: { costLog2, blockSize, parallelism },
    salt: Buffer.from(parts[4] ?? '', 'base64'),
    key: Buffer.from(parts[5] ?? '', 'base64'),
  };
}

/**
 * A hash of a random password nobody knows. Login verifies against it when
 * the e-mail has no password, so that a missing account costs the same time.
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$17$8$1$oxpc/MJwoXULdd79D2jplA==$EkhaCq/CSrdTnJZuon0bC47FaKKzRTd0SwhYGey1HCk=';

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (parsed === null || parsed.key.length === 0) return false;
  const key = await derive(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}
