import fastJsonStringify, { type Options } from 'fast-json-stringify';
import type { FastifyServerOptions } from 'fastify';

type Serialize = (data: unknown) => string;
type SerializerFactory = NonNullable<
  NonNullable<
    NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
  >['buildSerializer']
>;

/**
 * Response serializers, built by fast-json-stringify as Fastify's own
 * factory builds them, but once per schema rather than once per route of
 * each application: a process that builds the application again (the test
 * suite builds it about a hundred times per worker) reuses the generated
 * code, which is most of the cost of `buildApp`. A schema is plain JSON, so
 * equal text means an equal serializer; the code depends on the shared
 * schemas too (`$ref: "Error#"`), so the cache holds for one set of them.
 */
let cache = { shared: '', built: new Map<string, Serialize>() };

export const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions = {}) => {
  const shared = JSON.stringify(externalSchemas ?? {});
  if (shared !== cache.shared) cache = { shared, built: new Map() };
  const { built } = cache;
  const options: Options = { ...serializerOptions, schema: externalSchemas as Options['schema'] };
  return ({ schema }) => {
    const key = JSON.stringify(schema);
    let serialize = built.get(key);
    if (serialize === undefined) {
      serialize = fastJsonStringify(schema as object, options) as Serialize;
      built.set(key, serialize);
    }
    return serialize;
  };
};
