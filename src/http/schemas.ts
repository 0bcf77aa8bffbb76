import Type, { type Static, type TSchema } from 'typebox';
import { describeErrorCodes, ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * A UUID as the spec's Conventions define it: 8-4-4-4-12 hex digits, version
 * digit 1 to 8, variant digit 8, 9, a or b; the nil and max UUIDs too.
 */
export const UUID_PATTERN =
  '^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}' +
  '|00000000-0000-0000-0000-000000000000|[fF]{8}-[fF]{4}-[fF]{4}-[fF]{4}-[fF]{12})$';

export const Uuid = Type.String({ title: 'Uuid', format: 'uuid', pattern: UUID_PATTERN });

export const Timestamp = Type.String({ format: 'date-time' });

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.Unsafe<ErrorCode>({
        type: 'string',
        enum: Object.keys(ERROR_CODES),
        description: `Stable machine-readable code; every code and its meaning:\n\n${describeErrorCodes()}`,
      }),
      message: Type.String({ description: 'Human-readable explanation.' }),
      details: Type.Optional(
        Type.Unknown({ description: 'Structured context: the offending field, option, limit.' }),
      ),
    }),
  },
  { title: 'Error', description: 'Every error response has this shape.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** The name the Error schema is registered under (a component of the API description). */
export const ERROR_SCHEMA_ID = 'Error';

/** A reference to the Error schema, for response declarations. */
export const ErrorRef = Type.Unsafe<ErrorBody>({ $ref: `${ERROR_SCHEMA_ID}#` });

/** A route without a response body. */
export const NoContent = Type.Null({ description: 'No content' });

/** An object schema that refuses unknown properties. */
export function Strict<T extends Record<string, TSchema>>(
  properties: T,
  options: { description?: string; title?: string } = {},
) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** A color as `#rrggbb` (stored lowercase). */
export const Color = Type.String({
  pattern: '^#[0-9a-fA-F]{6}$',
  description: 'Hex color, `#rrggbb`.',
});

/** A trimmed, non-blank name. */
export function Name(maxLength = 200) {
  return Type.String({ minLength: 1, maxLength, pattern: '\\S' });
}

/** Path parameters: each named id is a UUID. */
export function IdParams<K extends string>(...names: K[]) {
  return Type.Object(
    Object.fromEntries(names.map((name) => [name, Uuid])) as Record<K, typeof Uuid>,
    { additionalProperties: false },
  );
}
