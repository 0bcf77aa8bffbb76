import { Ajv, type Options } from 'ajv';
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
  return ajv;
}

/**
 * Bodies are validated as sent: no type coercion, unknown properties refused.
 * Query strings and path parameters arrive as text and are coerced to the
 * schema's types (a repeated query parameter becomes an array).
 */
const bodyAjv = createAjv({ coerceTypes: false });
const textAjv = createAjv({ coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return withDeclaredCodes(ajv.compile(schema as object), schema);
};

/** Checks a value the server made (not sent) against a body schema, as a route would. */
export function bodyValidator(schema: TSchema) {
  return withDeclaredCodes(bodyAjv.compile(schema), schema);
}
