import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-service-signature';
export const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>]`: HMAC-SHA256 of `<t>.<raw body>` with
 * each live secret (two while a rotated-out secret still signs), lowercase hex,
 * no spaces. This is the format Stripe's verifiers accept.
 */
export function signatureHeader(
  body: string,
  secrets: readonly string[],
  timestamp: number,
): string {
  const signed = `${timestamp}.${body}`;
  const digests = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(signed, 'utf8').digest('hex')}`,
  );
  return [`t=${timestamp}`, ...digests].join(',');
}
