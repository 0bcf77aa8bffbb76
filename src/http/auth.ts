import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/schema.js';
import { AppError, forbidden, unauthorized } from './errors.js';
import type { Principal, UserPrincipal } from './principal.js';

/**
 * What a route accepts, declared on each route as `config.access`:
 * - `public`: no credential is read;
 * - `session`: a signed-in person only (API keys and apps get 403);
 * - `authenticated`: any credential, which its resolver may still refuse for
 *   this route (scope tables).
 * A route that declares nothing is refused to everyone.
 */
export type Access = 'public' | 'session' | 'authenticated';

/**
 * What a scoped credential (an app token on the content API, an organization
 * API key on the platform API) needs to call a route: every one of these
 * scopes, or `any` for none. A route without a rule is refused to them:
 * the rule is declared with the route (`http/route.ts`), fail-closed.
 */
export type CredentialRule = readonly string[] | 'any';

/** Which interface a route belongs to; set by `buildApp` from where the route is mounted. */
export type ApiKind = 'content' | 'platform' | 'system';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** See `CredentialRule`; undefined: refused to keys and apps. */
    rule?: CredentialRule;
    /** Set by the route helpers (`http/route.ts`); every route is declared through them. */
    declared?: boolean;
    /**
     * What guards the route beyond its credential rule, as declared with it:
     * the role permission (`projects.read`, `items.write`), or for a socket
     * not opened by a member, the credential it checks (`node token`).
     */
    guard?: string;
    api?: ApiKind;
    /** The route pattern without its root: `/workspaces/:workspaceId` at `/` and under `/api`. */
    canonicalUrl?: string;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /**
     * Whether the request's credential is still valid now (not signed out,
     * revoked or expired since): a long answer (an event stream) asks again.
     * Always true on a public route.
     */
    credentialStillValid: () => Promise<boolean>;
  }
}

/** The route a request matched, as the scope tables name it. */
export interface RouteRef {
  method: string;
  api: ApiKind;
  /**
   * The route pattern without its root: a content route is `/workspaces/:workspaceId`
   * whether it was reached at `/` or under `/api`; a platform route is `/api/orgs/:orgId`.
   */
  url: string;
  /** What a scoped credential needs, as the route declares it. */
  rule?: CredentialRule;
  /** Whether the route was declared through the route helpers (`http/route.ts`). */
  declared?: boolean;
}

/** Turns one kind of bearer token, recognized by its prefix, into a principal. */
export interface CredentialResolver {
  readonly prefix: string;
  /** The principal, or null when the token is unknown, revoked or expired. */
  resolve(db: Database, token: string, request: FastifyRequest): Promise<Principal | null>;
  /** Throws (403) when this principal may not call this route at all. */
  authorize?(principal: Principal, route: RouteRef): void;
}

export const SESSION_COOKIE = 'session';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{8,512}$/;

/**
 * The bearer token of a public route that reads it itself (logout): the
 * Authorization header, else the session cookie, which is held to the same
 * origin rule as on every authenticated route (`refuseForeignOrigin`).
 */
export function readCredential(request: FastifyRequest, publicUrl: string): string | null {
  const credential = readCredentialFrom(request);
  if (credential?.from === 'cookie') refuseForeignOrigin(request, originOf(publicUrl));
  return credential?.token ?? null;
}

/** The bearer token of a request and where it came from. */
function readCredentialFrom(
  request: FastifyRequest,
): { token: string; from: 'header' | 'cookie' } | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
    if (match?.[1] === undefined) {
      throw unauthorized(
        'malformed_authorization',
        'The Authorization header must be "Bearer <token>"',
      );
    }
    return { token: match[1], from: 'header' };
  }
  const cookie = request.cookies[SESSION_COOKIE];
  return cookie === undefined || cookie === '' ? null : { token: cookie, from: 'cookie' };
}

/** The `scheme://host[:port]` of a URL, or null when it is not one. */
function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/** Methods that change nothing: a cookie request by them needs no origin check. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `Sec-Fetch-Site` values of a request the service's own pages (or the person) made. */
const OWN_FETCH_SITES: ReadonlySet<string> = new Set(['same-origin', 'none']);

/**
 * Refuses a request authenticated by the session cookie that a page of
 * another origin could have made, when it changes state or opens a
 * WebSocket (a browser sends the cookie with a handshake whatever page opens
 * it, and the same-origin policy does not cover WebSockets). SameSite does
 * not help: services answer on subdomains of the same site as the API, so a
 * service's page is "same-site". The request must come from the service's own
 * origin (PUBLIC_URL): by its `Origin` header, or when a browser left that out,
 * by `Sec-Fetch-Site` (`same-origin`, or `none` for the person's own
 * navigation). A request with neither header is not a browser's (browsers send
 * one of them on every cross-site state-changing request) and passes: curl,
 * scripts. A bearer token cannot be sent by another site, so it needs no check.
 */
export function refuseForeignOrigin(request: FastifyRequest, publicOrigin: string | null): void {
  const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
  if (!upgrade && SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (origin !== undefined) {
    if (publicOrigin !== null && originOf(origin) === publicOrigin) return;
  } else if (site === undefined || OWN_FETCH_SITES.has(site.toLowerCase())) return;
  throw forbidden(
    'origin_not_allowed',
    upgrade
      ? "A WebSocket handshake authenticated by the session cookie must come from this service's own origin (PUBLIC_URL)"
      : "A request that changes state and is authenticated by the session cookie must come from this service's own origin (PUBLIC_URL); send a bearer token from elsewhere",
  );
}

export function requirePrincipal(request: FastifyRequest): Principal {
  if (request.principal === null) {
    throw new AppError('internal_error', 'Route read a principal it did not require');
  }
  return request.principal;
}

/**
 * The signed-in person on a `session` route. Other principal kinds exist
 * (API keys), so a route that reads `userId` narrows to a person first.
 */
export function requireUserPrincipal(request: FastifyRequest): UserPrincipal {
  const principal = requirePrincipal(request);
  if (principal.kind !== 'user') {
    throw forbidden('session_required', 'This route needs a signed-in person, not a key or app');
  }
  return principal;
}

/**
 * Installs the one hook that turns credentials into a principal, before any
 * handler runs. `publicUrl` is the service's address (PUBLIC_URL): cookie
 * requests that change state, and cookie WebSocket handshakes, must come
 * from its origin (`refuseForeignOrigin`).
 */
export function installAuth(
  app: FastifyInstance,
  db: Database,
  resolvers: readonly CredentialResolver[],
  publicUrl: string,
): void {
  const publicOrigin = originOf(publicUrl);
  app.decorateRequest('principal', null);
  app.decorateRequest('credentialStillValid', async () => true);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const access = request.routeOptions.config.access;
    if (access === 'public') return;
    if (access === undefined) {
      throw forbidden('route_not_accessible', 'This route accepts no credential');
    }
    const credential = readCredentialFrom(request);
    if (credential === null) {
      throw unauthorized('unauthenticated', 'Authentication required: send a bearer token');
    }
    const { token } = credential;
    const resolver = TOKEN_SHAPE.test(token)
      ? resolvers.find((candidate) => token.startsWith(candidate.prefix))
      : undefined;
    const principal = resolver ? await resolver.resolve(db, token, request) : null;
    if (resolver === undefined || principal === null) {
      throw unauthorized('invalid_token', 'The token is malformed, unknown, expired or revoked');
    }
    if (access === 'session' && principal.kind !== 'user') {
      throw forbidden('session_required', 'This route needs a signed-in person, not a key or app');
    }
    const { api = 'system', canonicalUrl, rule, declared = false } = request.routeOptions.config;
    resolver.authorize?.(principal, {
      method: request.method,
      api,
      url: canonicalUrl ?? request.routeOptions.url ?? request.url,
      rule,
      declared,
    });
    if (credential.from === 'cookie') refuseForeignOrigin(request, publicOrigin);
    request.principal = principal;
    request.credentialStillValid = () =>
      resolver.resolve(db, token, request).then(
        (again) => again !== null,
        () => false,
      );
  });
}
