import { createHash, randomBytes } from 'node:crypto';

/** A random bearer token: a kind prefix and 32 random bytes in base64url. */
export function generateToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Tokens are stored only as this digest (lowercase hex SHA-256). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The part of a token that may be shown again after creation (prefix and 4 characters). */
export function tokenPreview(token: string, prefix: string): string {
  return token.slice(0, prefix.length + 4);
}
