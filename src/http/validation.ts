import { Ajv, type Options } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { default as addFormatsImport } from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { withDeclaredCodes } from './schema-error-codes.js';
import { UUID_PATTERN } from './schemas.js';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    // A `oneOf` with a `discriminator` checks only the variant its tag names.
    discriminator: true,
    ...options,
  });
  addFormats(ajv);
  ajv.addFormat('uuid', new RegExp(UUID_PATTERN));
  ajv.addKeyword({
    keyword: LOWERCASE,
    type: 'string',
    schemaType: 'boolean',
    modifying: true,
    errors: false,
    // Runs after the string's own checks (format, pattern): only a valid UUID is rewritten.
    validate: (_enabled: boolean, data: string, _schema: unknown, where?: DataValidationCxt) => {
      if (where !== undefined && where.parentData !== undefined) {
        where.parentData[where.parentDataProperty] = data.toLowerCase();
      }
      return true;
    },
  });
  return ajv;
}

/** The keyword (this validator's own) that rewrites a valid UUID in lowercase. */
const LOWERCASE = 'x-sparrow-lowercase';

/**
 * The schema with every `format: "uuid"` string marked for lowercasing.
 * UUIDs are case-insensitive, the pattern accepts uppercase hex, and the
 * database answers lowercase: every route, path, query and body alike, gets
 * them lowercase, so ids compare equal wherever they are compared.
 */
function lowercasingUuids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowercasingUuids);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = lowercasingUuids(value);
  if (copy.format === 'uuid') copy[LOWERCASE] = true;
  return copy;
}

/**
 * Bodies are validated as sent: no type coercion, unknown properties refused.
 * Query strings and path parameters arrive as text and are coerced to the
 * schema's types (a repeated query parameter becomes an array).
 */
const bodyAjv = createAjv({ coerceTypes: false });
const textAjv = createAjv({ coerceTypes: 'array' });

/**
 * Validators by the schema's JSON, per ajv instance. ajv caches by schema
 * object, but many route schemas are built when the route is declared, so a
 * process that builds the application again (the test suite does, about a
 * hundred times per worker) would compile equal schemas anew; a schema is
 * plain JSON, so equal text means an equal validator.
 */
const compiled = new Map<string, ReturnType<typeof withDeclaredCodes>>();

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const isBody = httpPart === 'body';
  const key = `${isBody ? 'body' : 'text'}:${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const ajv = isBody ? bodyAjv : textAjv;
    validate = withDeclaredCodes(ajv.compile(lowercasingUuids(schema) as object), schema);
    compiled.set(key, validate);
  }
  return validate;
};

/** Checks a value the server made (not sent) against a body schema, as a route would. */
export function bodyValidator(schema: TSchema) {
  return withDeclaredCodes(bodyAjv.compile(schema), schema);
}
