import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import type { IdpConfig } from '../../config.js';
import { AppError, forbidden, unauthorized } from '../../http/errors.js';

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
}

interface Provider {
  discovery: Discovery;
  keys: ReturnType<typeof createRemoteJWKSet>;
}

async function discover(issuer: string): Promise<Provider> {
  const url = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const discovery = (await response.json()) as Discovery;
  if (discovery.issuer !== issuer) {
    throw new Error(`discovery names issuer ${discovery.issuer}, not ${issuer}`);
  }
  return { discovery, keys: createRemoteJWKSet(new URL(discovery.jwks_uri)) };
}

/** The identity providers one app has discovered, by issuer (built with the app, `runtime.ts`). */
export class IdentityProviders {
  private readonly providers = new Map<string, Promise<Provider>>();

  /** Whether the issuer's discovery is held (or under way). */
  holds(issuer: string): boolean {
    return this.providers.has(issuer);
  }

  /** The provider's discovery document and published keys, fetched once (again after a failure). */
  async of(config: IdpConfig): Promise<Provider> {
    let provider = this.providers.get(config.issuer);
    if (provider === undefined) {
      provider = discover(config.issuer);
      this.providers.set(config.issuer, provider);
      provider.catch(() => this.providers.delete(config.issuer));
    }
    try {
      return await provider;
    } catch (error) {
      throw new AppError('idp_unavailable', 'The identity provider could not be reached', {
        reason: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

export function requireIdp(config: IdpConfig | null): IdpConfig {
  if (config === null) {
    throw forbidden('idp_disabled', 'Sign-in with an identity provider is not configured here');
  }
  return config;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
}

function invalid(reason: string, message: string): AppError {
  const error = unauthorized('invalid_id_token', message);
  return new AppError(error.code, error.message, { reason });
}

/**
 * Verifies an id_token against the provider's published keys: signature,
 * issuer, audience equal to IDP_CLIENT_ID, expiry (required), and a verified
 * e-mail address; the nonce too when one was sent (browser flow). 401
 * `invalid_id_token` with `details.reason` otherwise.
 */
export async function verifyIdToken(
  providers: IdentityProviders,
  config: IdpConfig,
  idToken: string,
  nonce?: string,
): Promise<VerifiedIdentity> {
  const provider = await providers.of(config);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, provider.keys, {
      issuer: config.issuer,
      audience: config.clientId,
      requiredClaims: ['exp', 'sub'],
    }));
  } catch (error) {
    if (error instanceof errors.JWTExpired) throw invalid('expired', 'The id_token has expired');
    if (error instanceof errors.JWTClaimValidationFailed) {
      const reason =
        error.claim === 'aud' ? 'audience' : error.claim === 'iss' ? 'issuer' : 'claims';
      throw invalid(reason, `The id_token was refused: ${error.message}`);
    }
    if (
      error instanceof errors.JWSSignatureVerificationFailed ||
      error instanceof errors.JWKSNoMatchingKey
    ) {
      throw invalid('signature', 'The id_token is not signed by the provider');
    }
    throw invalid('malformed', 'The id_token is not a valid signed token');
  }
  if (nonce !== undefined && payload.nonce !== nonce) {
    throw invalid('nonce', 'The id_token does not carry the nonce of this sign-in');
  }
  const email = payload.email;
  if (typeof email !== 'string' || email === '' || payload.email_verified !== true) {
    throw invalid('email_unverified', 'The provider has not verified this e-mail address');
  }
  return {
    issuer: config.issuer,
    subject: String(payload.sub),
    email,
    name:
      typeof payload.name === 'string' && payload.name.trim() !== '' ? payload.name.trim() : null,
  };
}

/** The browser flow's code exchange at the provider's token endpoint; returns the id_token. */
export async function exchangeAtProvider(
  providers: IdentityProviders,
  config: IdpConfig,
  code: string,
  codeVerifier: string,
): Promise<string> {
  const { discovery } = await providers.of(config);
  const body = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: config.redirectUri,
    code_verifier: codeVerifier,
  });
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (config.clientSecret === null) {
    body.set('client_id', config.clientId);
  } else {
    const id = encodeURIComponent(config.clientId);
    const secret = encodeURIComponent(config.clientSecret);
    headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  }
  const response = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json().catch(() => ({}))) as { id_token?: unknown };
  if (!response.ok || typeof answer.id_token !== 'string') {
    throw unauthorized('idp_code_refused', 'The identity provider refused the sign-in code');
  }
  return answer.id_token;
}
