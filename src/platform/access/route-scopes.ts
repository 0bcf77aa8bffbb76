import type { RouteRef } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import { requireScopes, type Scope } from './scopes.js';

/**
 * Throws unless an organization API key with these scopes may call this
 * route. The rule is the one declared with the route (`orgRoutes`); it is
 * fail-closed: 403 `key_not_allowed` outside the platform API, on a route
 * declared without a rule (for people only) and on one declared without the
 * helpers, 403 `missing_scope` (naming it) when a scope is lacking.
 */
export function authorizeKeyRoute(scopes: readonly string[], route: RouteRef): void {
  if (route.api !== 'platform') {
    throw forbidden(
      'key_not_allowed',
      'Organization API keys work on the development-platform API only',
    );
  }
  if (route.declared !== true || route.rule === undefined) {
    throw forbidden('key_not_allowed', 'API keys cannot call this route', {
      route: `${route.method} ${route.url}`,
    });
  }
  if (route.rule !== 'any') requireScopes(scopes, route.rule as readonly Scope[]);
}
