import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { fastifyCookie } from '@fastify/cookie';
import { SESSION_COOKIE } from '../../http/auth.js';
import { hashToken } from '../../lib/tokens.js';
import type { AppContext } from '../../module.js';
import { resolveKey } from '../api-keys/service.js';
import { getMembership } from '../orgs/service.js';
import { serviceUrlOn } from '../routing/service-hosts.js';
import { type ServiceAccessSettings, serviceAccessSettings } from '../services/access-settings.js';
import { liveServiceSession, openServiceSession, takeCode } from './browser-sessions.js';
import { grantCacheOf } from './grant-cache.js';
import { keyRefusal, personRefusal, REFUSAL_MESSAGES, type Refusal } from './policy.js';
import { readScriptCredential, SERVICE_TOKEN_HEADER } from './script-credentials.js';
import { accessVersion } from './versions.js';

export type AccessDecision =
  | { kind: 'allow'; removeHeaders: string[]; setCookie?: string[] }
  | { kind: 'deny'; status: number; code: string; message: string }
  | { kind: 'redirect'; location: string; setCookie?: string[] };

export interface RoutedService {
  id: string;
  orgId: string;
  deploymentId: string;
  accessControl: 'public' | 'private';
  allowlist: string[];
  host: string;
}

/** The session cookie on a service's domain, and the state cookie of a sign-in under way. */
export const ACCESS_COOKIE = 'sparrow_access';
export const STATE_COOKIE = 'sparrow_access_state';

/**
 * The platform's cookies, taken out of every proxied request's Cookie header
 * (the service's own cookies stay): the platform session (a full credential,
 * sent along when SERVICE_DOMAIN shares a site with the API) and the
 * service-domain sign-in cookies, under either of their names.
 */
export const PLATFORM_COOKIES: ReadonlySet<string> = new Set([
  SESSION_COOKIE,
  ...[ACCESS_COOKIE, STATE_COOKIE].flatMap((base) => [base, `__Host-${base}`]),
]);

/**
 * A cookie's name on the service's domain. Over https it takes the `__Host-`
 * prefix, which browsers accept only without a Domain attribute: another
 * service on a sibling host of the service domain cannot toss a cookie of
 * that name onto this one (a planted state would let it sign a visitor in as
 * someone else).
 */
export function cookieName(ctx: AppContext, base: string): string {
  return ctx.config.serviceUrls.scheme === 'https' ? `__Host-${base}` : base;
}
/** Where the service's domain takes the one-time code (handled here, never by the container). */
export const CALLBACK_PATH = '/__sparrow/callback';

interface AccessRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

const deny = (status: number, code: string, message: string): AccessDecision => ({
  kind: 'deny',
  status,
  code,
  message,
});

function refused(refusal: NonNullable<Refusal>): AccessDecision {
  return deny(403, refusal.code, REFUSAL_MESSAGES[refusal.code]);
}

/**
 * Whether a request that arrived on a service's host (`svc-…` or its custom
 * domain) may reach the container, and what to take out of it first. The
 * service's access settings are read here, at the organization's current
 * access version, not taken from the caller's routing (which may be older).
 *
 * - Public: allowed; a platform credential is still removed.
 * - Private, a script: the API key in `X-Service-Token` (preferred) or as
 *   `Authorization: Bearer spk_…` is checked (Authentication 8) and removed.
 *   A bearer that is not a platform credential is left for the container and
 *   the request goes on as a browser's.
 * - Private, a browser: the `sparrow_access` cookie of this service's domain,
 *   or a redirect to sign in on the API host (`GET /api/services/{id}/access`),
 *   which comes back with a one-time code to `/__sparrow/callback`.
 *
 * Granted decisions are cached per app (10 s at most) and trusted only at the
 * organization's current access version, read on every request, so a
 * revocation that has committed is refused on the very next request on every
 * server. Denials are never cached.
 */
export async function checkServiceAccess(
  ctx: AppContext,
  service: RoutedService,
  request: AccessRequest,
): Promise<AccessDecision> {
  const cache = grantCacheOf(ctx);
  // Read first: whatever is evaluated below is at least as new as this version.
  const version = await accessVersion(ctx.db, service.orgId);
  let settings = cache.serviceSettings(service.id, service.orgId, version);
  if (settings === undefined) {
    settings = await serviceAccessSettings(ctx.db, service.id);
    if (settings === undefined) return deny(404, 'not_found', 'This service no longer exists');
    cache.rememberSettings(settings, version);
  }
  const script = readScriptCredential(request.headers);
  const removeHeaders = [...script.remove];
  if (settings.accessControl === 'public') return { kind: 'allow', removeHeaders };
  if (script.kind === 'malformed') {
    return deny(401, 'invalid_service_token', `${SERVICE_TOKEN_HEADER} must hold an API key`);
  }
  if (script.kind === 'session') {
    return deny(401, 'api_key_required', 'Send an API key, not a session token, to a service');
  }
  if (script.kind === 'key') {
    return checkKey(ctx, settings, version, script.token, removeHeaders);
  }
  return checkBrowser(ctx, settings, version, service.host, request, removeHeaders);
}

async function checkKey(
  ctx: AppContext,
  settings: ServiceAccessSettings,
  version: number,
  token: string,
  removeHeaders: string[],
): Promise<AccessDecision> {
  const cache = grantCacheOf(ctx);
  const cacheKey = `key:${hashToken(token)}:${settings.id}`;
  if (cache.grant(cacheKey, settings.orgId, version) !== undefined) {
    return { kind: 'allow', removeHeaders };
  }
  const key = await resolveKey(ctx.db, token, ctx.log);
  if (key === null) {
    return deny(401, 'invalid_service_token', 'The key is malformed, unknown or revoked');
  }
  const refusal = keyRefusal(settings, key);
  if (refusal !== null) return refused(refusal);
  cache.remember(cacheKey, settings.orgId, version, key.userId);
  return { kind: 'allow', removeHeaders };
}

function cookieOptions(ctx: AppContext, maxAge: number) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: ctx.config.serviceUrls.scheme === 'https',
    maxAge,
  };
}

function pathOf(url: string): { path: string; query: URLSearchParams } {
  const parsed = new URL(url, 'http://service.invalid');
  return { path: parsed.pathname, query: parsed.searchParams };
}

async function checkBrowser(
  ctx: AppContext,
  settings: ServiceAccessSettings,
  version: number,
  host: string,
  request: AccessRequest,
  removeHeaders: string[],
): Promise<AccessDecision> {
  const cookies = fastifyCookie.parse(request.headers.cookie ?? '');
  const { path, query } = pathOf(request.url);
  if (path === CALLBACK_PATH) {
    return exchangeCode(ctx, settings, query.get('code'), cookies[cookieName(ctx, STATE_COOKIE)]);
  }
  const token = cookies[cookieName(ctx, ACCESS_COOKIE)];
  if (token !== undefined && token !== '') {
    // The session is ours, not the container's: the proxy takes it out (PLATFORM_COOKIES).
    const cache = grantCacheOf(ctx);
    const cacheKey = `session:${hashToken(token)}:${settings.id}`;
    if (cache.grant(cacheKey, settings.orgId, version) !== undefined) {
      return { kind: 'allow', removeHeaders };
    }
    const session = await liveServiceSession(ctx.db, hashToken(token), settings.id);
    if (session !== undefined) {
      const member = await getMembership(ctx.db, settings.orgId, session.userId);
      const refusal = personRefusal(settings, session.userId, member !== undefined);
      if (refusal !== null) return refused(refusal);
      cache.remember(cacheKey, settings.orgId, version, session.userId, session.until.getTime());
      return { kind: 'allow', removeHeaders };
    }
  }
  return signIn(ctx, settings, host, request);
}

/** Sends a browser to sign in on the API host; anything else gets a 401 that says where. */
function signIn(
  ctx: AppContext,
  settings: ServiceAccessSettings,
  host: string,
  request: AccessRequest,
): AccessDecision {
  const state = randomBytes(24).toString('base64url');
  const location = new URL(`${ctx.config.publicUrl}/api/services/${settings.id}/access`);
  location.searchParams.set('return', serviceUrlOn(ctx.config, host, request.url));
  location.searchParams.set('state', state);
  const accept = String(request.headers.accept ?? '');
  const navigating =
    (request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html');
  if (!navigating) {
    return deny(
      401,
      'service_login_required',
      `This service is private: send an API key with deployments:access in ${SERVICE_TOKEN_HEADER}, ` +
        `or sign in with a browser at ${ctx.config.publicUrl}/api/services/${settings.id}/access`,
    );
  }
  return {
    kind: 'redirect',
    location: location.toString(),
    setCookie: [
      fastifyCookie.serialize(cookieName(ctx, STATE_COOKIE), state, cookieOptions(ctx, 600)),
    ],
  };
}

async function exchangeCode(
  ctx: AppContext,
  settings: ServiceAccessSettings,
  code: string | null,
  state: string | undefined,
): Promise<AccessDecision> {
  const taken =
    code === null || !/^spc_[A-Za-z0-9_-]{43}$/.test(code)
      ? undefined
      : await takeCode(ctx.db, code, settings.id, state);
  if (taken === undefined) {
    return deny(
      400,
      'access_code_invalid',
      'This sign-in link is unknown, used, expired or from another browser: open the service again',
    );
  }
  const { token, expiresAt } = await openServiceSession(ctx.db, settings.id, taken);
  const maxAge = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  return {
    kind: 'redirect',
    location: taken.returnTo,
    setCookie: [
      fastifyCookie.serialize(cookieName(ctx, ACCESS_COOKIE), token, cookieOptions(ctx, maxAge)),
      fastifyCookie.serialize(cookieName(ctx, STATE_COOKIE), '', cookieOptions(ctx, 0)),
    ],
  };
}
