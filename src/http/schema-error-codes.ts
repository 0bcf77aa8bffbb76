import type { ErrorObject, ValidateFunction } from 'ajv';
import { type CodeWithStatus, ERROR_CODES } from './error-codes.js';

/**
 * A schema may name the error code a violation inside it answers, instead of
 * `validation_failed`: `{..., "x-error-code": "invalid_indent"}`. The
 * innermost schema naming one wins, so a document names a code for all of its
 * parts and a part a narrower one. The API description shows it as an
 * extension keyword of the schema.
 */
export const ERROR_CODE_KEYWORD = 'x-error-code';

/** A code a schema may name: a violation is always a 400. */
export type SchemaErrorCode = CodeWithStatus<400>;

/** Schema options naming the code its violations answer: `Type.Integer({ ...answers('x') })`. */
export function answers(code: SchemaErrorCode): { [ERROR_CODE_KEYWORD]: SchemaErrorCode } {
  return { [ERROR_CODE_KEYWORD]: code };
}

/** A validation error with the code its schema names, if one does. */
export interface CodedValidationError extends ErrorObject {
  code?: SchemaErrorCode;
}

function isNode(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

const CATALOG: ReadonlyMap<string, { status: number }> = new Map(Object.entries(ERROR_CODES));

function isErrorCode(value: unknown): value is SchemaErrorCode {
  return typeof value === 'string' && CATALOG.get(value)?.status === 400;
}

/** The JSON pointer segments of an ajv `schemaPath` (`#/properties/a~1b/maximum`). */
function segments(schemaPath: string): string[] {
  return schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * Walks from the root schema to the failing keyword: the code named last on
 * the way, and the schema holding the keyword.
 */
function locate(root: unknown, schemaPath: string): { code?: SchemaErrorCode; holder: unknown } {
  let node = root;
  let code: SchemaErrorCode | undefined;
  const path = segments(schemaPath);
  for (const segment of path.slice(0, -1)) {
    if (!isNode(node)) break;
    if (isErrorCode(node[ERROR_CODE_KEYWORD])) code = node[ERROR_CODE_KEYWORD];
    node = node[segment];
  }
  if (isNode(node) && isErrorCode(node[ERROR_CODE_KEYWORD])) code = node[ERROR_CODE_KEYWORD];
  return { code, holder: node };
}

/** The tag values a discriminated `oneOf` accepts, for the error message. */
function tagValues(holder: unknown, tag: unknown): unknown[] | undefined {
  if (!isNode(holder) || !Array.isArray(holder.oneOf) || typeof tag !== 'string') return undefined;
  return holder.oneOf.map((variant: unknown) => {
    const properties = isNode(variant) ? variant.properties : undefined;
    const property = isNode(properties) ? properties[tag] : undefined;
    return isNode(property) ? property.const : undefined;
  });
}

function annotate(error: ErrorObject, root: unknown): CodedValidationError {
  const { code, holder } = locate(root, error.schemaPath);
  const coded: CodedValidationError = code === undefined ? { ...error } : { ...error, code };
  if (error.keyword === 'discriminator' && error.params.error === 'mapping') {
    const allowedValues = tagValues(holder, error.params.tag);
    if (allowedValues !== undefined) coded.params = { ...error.params, allowedValues };
  }
  return coded;
}

/** Wraps a compiled validator so that its errors carry the codes their schemas name. */
export function withDeclaredCodes(
  validate: ValidateFunction,
  schema: unknown,
): ((data: unknown) => boolean) & { errors: CodedValidationError[] | null } {
  const check = Object.assign(
    (data: unknown): boolean => {
      const valid = validate(data);
      check.errors = valid ? null : (validate.errors ?? []).map((error) => annotate(error, schema));
      return valid;
    },
    { errors: null as CodedValidationError[] | null },
  );
  return check;
}
