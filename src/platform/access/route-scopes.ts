import type { RouteOptions } from 'fastify';
import type { RouteRef } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import type { RoutePlugin } from '../../module.js';
import { requireScopes, type Scope } from './scopes.js';

/**
 * What an API key needs to call a route:
 * - a list of scopes, every one of them required (`*` stands for any);
 * - `any-key`: any key of the organization, no scope (only reads of the
 *   organization record itself, which the key's holder already knows);
 * - `session`: no key at all; the route is for signed-in people.
 */
export type KeyRule = readonly Scope[] | 'any-key' | 'session';

const SESSION = 'session';
const ANY_KEY = 'any-key';
const ORG = '/api/orgs/:orgId';
const PROJECT = `${ORG}/projects/:projectId`;
const WORKER = `${PROJECT}/workers/:workerId`;
const NODE = `${ORG}/nodes/:nodeId`;
const DEPLOYMENT = `${ORG}/deployments/:deploymentId`;
const SERVICE = `${DEPLOYMENT}/services/:serviceId`;

/**
 * The route-to-scope table, keyed by `METHOD /pattern` as registered. It is
 * fail-closed: a key calling a route the table does not name gets 403. GET
 * needs `:read`, other methods `:write`, and the terminal, SSH-token and exec
 * routes of a worker `workers:exec`. It names routes of later modules too
 * (workers, nodes, deployments), so they are covered the day they land; a
 * test checks that every registered `/api/orgs/...` route is named here.
 */
export const ROUTE_SCOPES: Readonly<Record<string, KeyRule>> = {
  // Organizations. A key belongs to one organization and always sees it;
  // creating organizations and managing members is for people.
  'GET /api/orgs': ANY_KEY,
  'POST /api/orgs': SESSION,
  [`GET ${ORG}`]: ANY_KEY,
  [`GET ${ORG}/members`]: SESSION,
  [`POST ${ORG}/members`]: SESSION,
  [`PATCH ${ORG}/members/:userId`]: SESSION,
  [`DELETE ${ORG}/members/:userId`]: SESSION,

  // API keys: managed with a session only (spec, Authentication 7).
  [`GET ${ORG}/api-keys`]: SESSION,
  [`POST ${ORG}/api-keys`]: SESSION,
  [`DELETE ${ORG}/api-keys/:keyId`]: SESSION,

  // Projects. A PATCH carrying `secrets` also needs `secrets:write`; the
  // project service checks that, since it depends on the body.
  [`GET ${ORG}/projects`]: ['projects:read'],
  [`POST ${ORG}/projects`]: ['projects:write'],
  [`GET ${PROJECT}`]: ['projects:read'],
  [`PATCH ${PROJECT}`]: ['projects:write'],
  [`DELETE ${PROJECT}`]: ['projects:write'],
  [`GET ${PROJECT}/secrets`]: ['projects:read'],
  [`POST ${PROJECT}/secrets`]: ['projects:write', 'secrets:write'],
  [`DELETE ${PROJECT}/secrets/:secretId`]: ['projects:write', 'secrets:write'],
  [`GET ${PROJECT}/versions`]: ['projects:read'],
  [`GET ${PROJECT}/versions/:version`]: ['projects:read'],
  [`POST ${PROJECT}/versions/:version/restore`]: ['projects:write'],
  [`POST ${PROJECT}/build`]: ['projects:write'],
  [`GET ${PROJECT}/image-builds`]: ['projects:read'],
  'GET /api/image-builds/:buildId/logs': ['projects:read'],

  // Workers (a later module).
  [`GET ${PROJECT}/workers`]: ['workers:read'],
  [`POST ${PROJECT}/workers`]: ['workers:write'],
  [`GET ${WORKER}`]: ['workers:read'],
  [`DELETE ${WORKER}`]: ['workers:write'],
  [`POST ${WORKER}/stop`]: ['workers:write'],
  [`POST ${WORKER}/start`]: ['workers:write'],
  [`POST ${WORKER}/rebuild`]: ['workers:write'],
  [`GET ${WORKER}/logs`]: ['workers:read'],
  [`GET ${WORKER}/stats`]: ['workers:read'],
  [`GET ${WORKER}/git-status`]: ['workers:read'],
  [`GET ${WORKER}/ports`]: ['workers:read'],
  [`POST ${WORKER}/ssh-token`]: ['workers:exec'],
  [`POST ${WORKER}/exec`]: ['workers:exec'],
  [`GET ${WORKER}/commands`]: ['workers:exec'],
  [`GET ${WORKER}/commands/:commandId`]: ['workers:exec'],
  [`POST ${WORKER}/commands/:commandId/cancel`]: ['workers:exec'],
  // The live terminal and log stream of a worker (a WebSocket upgrade).
  'GET /api/workers/:workerId/terminal': ['workers:exec'],
  [`GET ${WORKER}/terminals`]: ['workers:exec'],
  [`POST ${WORKER}/terminals`]: ['workers:exec'],
  [`DELETE ${WORKER}/terminals/:name`]: ['workers:exec'],

  // Nodes (a later module).
  [`GET ${ORG}/nodes`]: ['nodes:read'],
  [`POST ${ORG}/nodes`]: ['nodes:write'],
  [`GET ${NODE}`]: ['nodes:read'],
  [`DELETE ${NODE}`]: ['nodes:write'],
  [`POST ${NODE}/token`]: ['nodes:write'],
  [`POST ${NODE}/drain`]: ['nodes:write'],
  [`GET ${NODE}/inventory`]: ['nodes:read'],

  // Deployments and their services (a later module).
  [`GET ${ORG}/deployments`]: ['deployments:read'],
  [`POST ${ORG}/deployments`]: ['deployments:write'],
  [`GET ${DEPLOYMENT}`]: ['deployments:read'],
  [`PATCH ${DEPLOYMENT}`]: ['deployments:write'],
  [`DELETE ${DEPLOYMENT}`]: ['deployments:write'],
  [`POST ${DEPLOYMENT}/start`]: ['deployments:write'],
  [`POST ${DEPLOYMENT}/stop`]: ['deployments:write'],
  [`POST ${DEPLOYMENT}/deploy`]: ['deployments:write'],
  [`GET ${DEPLOYMENT}/services`]: ['deployments:read'],
  [`POST ${DEPLOYMENT}/services`]: ['deployments:write'],
  [`PATCH ${SERVICE}`]: ['deployments:write'],
  [`DELETE ${SERVICE}`]: ['deployments:write'],
  [`POST ${SERVICE}/start`]: ['deployments:write'],
  [`POST ${SERVICE}/stop`]: ['deployments:write'],
  [`POST ${SERVICE}/deploy`]: ['deployments:write'],
  [`POST ${SERVICE}/verify-domain`]: ['deployments:write'],
  [`GET ${SERVICE}/logs`]: ['deployments:read'],
};

/** The rule for a route; HEAD is answered like GET. Undefined: the table does not name it. */
export function keyRuleFor(method: string, url: string): KeyRule | undefined {
  const key = `${method === 'HEAD' ? 'GET' : method} ${url}`;
  return Object.hasOwn(ROUTE_SCOPES, key) ? ROUTE_SCOPES[key] : undefined;
}

/**
 * Throws unless a key with these scopes may call this route: 403
 * `key_not_allowed` outside the platform API or the table, 403
 * `missing_scope` (naming it) when a scope is lacking.
 */
export function authorizeKeyRoute(scopes: readonly string[], route: RouteRef): void {
  if (route.api !== 'platform') {
    throw forbidden(
      'key_not_allowed',
      'Organization API keys work on the development-platform API only',
    );
  }
  if (route.declared) {
    if (route.rule === undefined) {
      throw forbidden('key_not_allowed', 'API keys cannot call this route', {
        route: `${route.method} ${route.url}`,
      });
    }
    if (route.rule !== 'any') requireScopes(scopes, route.rule as readonly Scope[]);
    return;
  }
  const rule = keyRuleFor(route.method, route.url);
  if (rule === undefined || rule === SESSION) {
    throw forbidden('key_not_allowed', 'API keys cannot call this route', {
      route: `${route.method} ${route.url}`,
    });
  }
  if (rule !== ANY_KEY) requireScopes(scopes, rule);
}

function describeRule(rule: KeyRule | undefined): string {
  if (rule === undefined) return '**API keys:** refused (403 `key_not_allowed`).';
  if (rule === SESSION) {
    return '**API keys:** refused (403 `session_required`): for signed-in people only.';
  }
  if (rule === ANY_KEY) return '**API keys:** any key of this organization, no scope needed.';
  const names = rule.map((scope) => `\`${scope}\``).join(' and ');
  return `**API keys:** need ${rule.length > 1 ? 'the scopes' : 'the scope'} ${names} (or \`*\`).`;
}

/** An `onRoute` hook: appends to each route's description what an API key needs, from the table. */
export function describeKeyRule(route: RouteOptions): void {
  if (route.config?.declared) return;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const method = methods.find((candidate) => candidate !== 'HEAD') ?? 'GET';
  const schema = { ...route.schema };
  // A session route refuses keys before the table is read.
  const rule = route.config?.access === 'session' ? SESSION : keyRuleFor(method, route.url);
  const note = describeRule(rule);
  schema.description = schema.description === undefined ? note : `${schema.description}\n\n${note}`;
  route.schema = schema;
}

/** Registers a module's platform routes in a context whose routes document their key rule. */
export function documentKeyRules(plugin: RoutePlugin): RoutePlugin {
  return async (router, ctx) => {
    await router.register(async (scoped) => {
      scoped.addHook('onRoute', describeKeyRule);
      await plugin(scoped, ctx);
    });
  };
}
