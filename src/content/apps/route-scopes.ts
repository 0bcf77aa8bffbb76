import type { RouteRef } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import { checkScopes } from './scopes.js';

/**
 * Throws unless an app with these scopes may call this route. The rule is
 * the one declared with the route (`workspaceRoutes`); it is fail-closed: 403
 * `app_not_allowed` outside the content API, on a route declared without a
 * rule (refused to apps, or for people only) and on one declared without the
 * helpers, 403 `missing_scope` (naming it) when a scope is lacking.
 */
export function authorizeAppRoute(scopes: readonly string[], route: RouteRef): void {
  if (route.api !== 'content' || route.declared !== true || route.rule === undefined) {
    throw forbidden('app_not_allowed', 'App tokens cannot call this route', {
      route: `${route.method} ${route.url}`,
    });
  }
  if (route.rule !== 'any') checkScopes(scopes, route.rule);
}
