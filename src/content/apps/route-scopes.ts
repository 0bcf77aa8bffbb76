import type { RouteRef } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import { type AppScope, checkScopes } from './scopes.js';

/**
 * What an app token needs to call a content route:
 * - a list of scopes, every one of them required (the installation's role is
 *   checked as well, by the route, like any caller's);
 * - `any-app`: no scope (the app's own workspace record);
 * - `refused`: never for apps;
 * - `session`: a route for signed-in people (the auth hook refuses apps first);
 * - `public`: no credential is read at all.
 */
export type AppRule = readonly AppScope[] | 'any-app' | 'refused' | 'session' | 'public';

const PUBLIC = 'public';
const SESSION = 'session';
const REFUSED = 'refused';
const ANY_APP = 'any-app';
const WS = '/workspaces/:workspaceId';
const LIST = `${WS}/collections/:collectionId`;
const ITEM = `${WS}/items/:itemId`;
const HOOK = `${WS}/webhooks/:endpointId`;

/**
 * The route-to-scope table of app tokens, keyed by `METHOD /pattern` (the
 * pattern without its root). Fail-closed: a route it does not name is refused
 * to every app (403 `app_not_allowed`), and a test walks every registered
 * content route to make sure each is named. Reads reached by POST (queries,
 * group counts, the bulk preview) are named one by one with a read scope; the
 * views engine's routes are named before they land.
 */
export const APP_ROUTE_SCOPES: Readonly<Record<string, AppRule>> = {
  // Accounts and sign-in: public, or for people only.
  'GET /health': PUBLIC,
  'GET /auth/registration': PUBLIC,
  'GET /auth/invitation': PUBLIC,
  'POST /auth/register': PUBLIC,
  'POST /auth/login': PUBLIC,
  'POST /auth/logout': PUBLIC,
  'POST /auth/idp': PUBLIC,
  'GET /auth/idp/start': PUBLIC,
  'GET /auth/idp/callback': PUBLIC,
  'POST /oauth/token': PUBLIC,
  'GET /apps/scopes': PUBLIC,
  'GET /auth/me': SESSION,
  'GET /auth/identities': SESSION,
  'POST /auth/identities/idp': SESSION,

  // App records and consent: people only.
  'GET /apps': SESSION,
  'POST /apps': SESSION,
  'GET /apps/:appId': SESSION,
  'PATCH /apps/:appId': SESSION,
  'DELETE /apps/:appId': SESSION,
  'POST /apps/:appId/client-secret': SESSION,
  'GET /oauth/authorize': SESSION,
  'POST /oauth/authorize': SESSION,

  // Workspaces: an app sees its own; it cannot change or delete it.
  'GET /workspaces': ANY_APP,
  'POST /workspaces': SESSION,
  [`GET ${WS}`]: ANY_APP,
  [`PATCH ${WS}`]: REFUSED,
  [`DELETE ${WS}`]: SESSION,
  [`GET ${WS}/overview`]: ['items:read'],

  // Members, keys, invitations and installations: people only (spec: Authentication 9).
  [`GET ${WS}/members`]: ['members:read'],
  [`POST ${WS}/members`]: SESSION,
  [`PATCH ${WS}/members/me`]: SESSION,
  [`DELETE ${WS}/members/:userId`]: SESSION,
  [`GET ${WS}/api-keys`]: SESSION,
  [`POST ${WS}/api-keys`]: SESSION,
  [`DELETE ${WS}/api-keys/:keyId`]: SESSION,
  [`GET ${WS}/invitations`]: SESSION,
  [`POST ${WS}/invitations`]: SESSION,
  [`DELETE ${WS}/invitations/:invitationId`]: SESSION,
  [`GET ${WS}/app-installations`]: SESSION,
  [`DELETE ${WS}/app-installations/:installationId`]: SESSION,

  // Schema: fields, statuses, lists, list groups, saved views.
  [`GET ${WS}/fields`]: ['schema:read'],
  [`POST ${WS}/fields`]: ['schema:write'],
  [`GET ${WS}/fields/:fieldId`]: ['schema:read'],
  [`PATCH ${WS}/fields/:fieldId`]: ['schema:write'],
  [`DELETE ${WS}/fields/:fieldId`]: ['schema:write'],
  [`POST ${WS}/fields/:fieldId/options`]: ['schema:write'],
  [`GET ${WS}/statuses`]: ['schema:read'],
  [`POST ${WS}/statuses`]: ['schema:write'],
  [`PUT ${WS}/statuses/order`]: ['schema:write'],
  [`PATCH ${WS}/statuses/:statusId`]: ['schema:write'],
  [`DELETE ${WS}/statuses/:statusId`]: ['schema:write'],
  [`GET ${WS}/collections`]: ['schema:read'],
  [`POST ${WS}/collections`]: ['schema:write'],
  [`PUT ${WS}/collections/order`]: ['schema:write'],
  [`GET ${LIST}`]: ['schema:read'],
  [`PATCH ${LIST}`]: ['schema:write'],
  [`DELETE ${LIST}`]: ['schema:write'],
  [`GET ${WS}/collection-groups`]: ['schema:read'],
  [`POST ${WS}/collection-groups`]: ['schema:write'],
  [`PUT ${WS}/collection-groups/order`]: ['schema:write'],
  [`PATCH ${WS}/collection-groups/:groupId`]: ['schema:write'],
  [`DELETE ${WS}/collection-groups/:groupId`]: ['schema:write'],
  [`GET ${LIST}/views`]: ['schema:read'],
  [`POST ${LIST}/views`]: ['schema:write'],
  [`GET ${LIST}/views/:viewId`]: ['schema:read'],
  [`PATCH ${LIST}/views/:viewId`]: ['schema:write'],
  [`DELETE ${LIST}/views/:viewId`]: ['schema:write'],

  // Cards. Reads reached by POST are named one by one.
  [`POST ${LIST}/items`]: ['items:write'],
  [`POST ${LIST}/query`]: ['items:read'],
  [`POST ${LIST}/group-counts`]: ['items:read'],
  [`POST ${LIST}/grouped-query`]: ['items:read'],
  [`POST ${LIST}/bulk-preview`]: ['items:read'],
  [`GET ${WS}/search`]: ['items:read'],
  [`POST ${LIST}/bulk-update`]: ['items:write'],
  [`GET ${ITEM}`]: ['items:read'],
  [`PATCH ${ITEM}`]: ['items:write'],
  [`DELETE ${ITEM}`]: ['items:write'],
  [`POST ${ITEM}/move`]: ['items:write'],
  [`POST ${ITEM}/collections`]: ['items:write'],
  [`DELETE ${ITEM}/collections/:collectionId`]: ['items:write'],
  [`POST ${ITEM}/duplicate`]: ['items:write'],
  // Collections in the body also need schema:write, files files:write (checked by the import).
  [`POST ${WS}/import`]: ['items:write'],

  // Files.
  [`GET ${WS}/files`]: ['files:read'],
  [`POST ${WS}/files`]: ['files:write'],
  [`GET ${WS}/files/:fileId`]: ['files:read'],
  [`GET ${WS}/files/:fileId/content`]: ['files:read'],
  [`DELETE ${WS}/files/:fileId`]: ['files:write'],

  // The event log and webhooks.
  [`GET ${WS}/events`]: ['events:read'],
  [`GET ${WS}/webhooks`]: ['webhooks:read'],
  [`POST ${WS}/webhooks`]: ['webhooks:write'],
  [`GET ${HOOK}`]: ['webhooks:read'],
  [`PATCH ${HOOK}`]: ['webhooks:write'],
  [`DELETE ${HOOK}`]: ['webhooks:write'],
  [`POST ${HOOK}/pause`]: ['webhooks:write'],
  [`POST ${HOOK}/resume`]: ['webhooks:write'],
  [`POST ${HOOK}/rotate-secret`]: ['webhooks:write'],
  [`GET ${HOOK}/deliveries`]: ['webhooks:read'],
  [`GET ${HOOK}/deliveries/:deliveryId`]: ['webhooks:read'],
  [`POST ${HOOK}/deliveries/:deliveryId/replay`]: ['webhooks:write'],
};

/** The rule for a route; HEAD is answered like GET. Undefined: the table does not name it. */
export function appRuleFor(method: string, url: string): AppRule | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  return Object.hasOwn(APP_ROUTE_SCOPES, key) ? APP_ROUTE_SCOPES[key] : undefined;
}

/**
 * Throws unless an app with these scopes may call this route: 403
 * `app_not_allowed` outside the content API, for a route the table does not
 * name or refuses, and 403 `missing_scope` (naming it) when a scope is lacking.
 */
export function authorizeAppRoute(scopes: readonly string[], route: RouteRef): void {
  if (route.declared) {
    if (route.api !== 'content' || route.rule === undefined) {
      throw forbidden('app_not_allowed', 'App tokens cannot call this route', {
        route: `${route.method} ${route.url}`,
      });
    }
    if (route.rule !== 'any') checkScopes(scopes, route.rule);
    return;
  }
  const rule = route.api === 'content' ? appRuleFor(route.method, route.url) : undefined;
  if (rule === undefined || rule === REFUSED || rule === SESSION || rule === PUBLIC) {
    throw forbidden('app_not_allowed', 'App tokens cannot call this route', {
      route: `${route.method} ${route.url}`,
    });
  }
  if (rule !== ANY_APP) checkScopes(scopes, rule);
}
