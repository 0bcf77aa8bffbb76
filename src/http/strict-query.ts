import type { RouteOptions } from 'fastify';
import { CONTENT_MIRROR_PREFIX } from './openapi.js';

/** The interactive reference: static pages and scripts, not part of the API. */
const DOCUMENTATION_PREFIX = `${CONTENT_MIRROR_PREFIX}/docs`;

/** The query string of a route that takes none. */
const NO_QUERY = { type: 'object', properties: {}, additionalProperties: false } as const;

function isObjectSchema(schema: unknown): schema is Record<string, unknown> {
  return (
    schema !== null && typeof schema === 'object' && 'type' in schema && schema.type === 'object'
  );
}

/**
 * An `onRoute` hook: unknown query parameters are refused (400
 * `validation_failed`) on every route, as unknown body properties are. A
 * route without a query schema takes none; a declared object schema refuses
 * the parameters it does not list, unless it says otherwise with
 * `additionalProperties` (the identity provider's callback, whose extra
 * parameters are the provider's to add).
 */
export function strictQuery(route: RouteOptions): void {
  if (route.url.startsWith(DOCUMENTATION_PREFIX)) return;
  const schema = route.schema ?? {};
  const query: unknown = schema.querystring;
  if (query === undefined) {
    route.schema = { ...schema, querystring: NO_QUERY };
  } else if (isObjectSchema(query) && query.additionalProperties === undefined) {
    route.schema = { ...schema, querystring: { ...query, additionalProperties: false } };
  }
}
