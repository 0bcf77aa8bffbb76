import type { ErrorObject } from 'ajv';
import type { Static, TSchema } from 'typebox';
import { bodyValidator } from '../../http/validation.js';

type Check = ReturnType<typeof bodyValidator>;

/** Validators by schema object: tool schemas are built once, when the module loads. */
const checks = new WeakMap<TSchema, Check>();

function checkOf(schema: TSchema): Check {
  let check = checks.get(schema);
  if (check === undefined) {
    check = bodyValidator(schema);
    checks.set(schema, check);
  }
  return check;
}

/** One line per violation: where, and what (an unknown property is named). */
function describeErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((error) => {
      const where = error.instancePath === '' ? '' : `${error.instancePath} `;
      const extra: unknown = error.params.additionalProperty;
      return `${where}${error.message ?? 'is invalid'}${typeof extra === 'string' ? ` (${extra})` : ''}`;
    })
    .join('; ');
}

/** The problems of `value` under `schema` (defaults filled in), or undefined when it conforms. */
export function problemsOf<S extends TSchema>(schema: S, value: unknown): string | undefined {
  const check = checkOf(schema);
  return check(value) ? undefined : describeErrors(check.errors ?? []);
}

/** Whether `value` conforms to `schema` (validated as a request body is: no coercion, defaults filled in). */
export function conforms<S extends TSchema>(schema: S, value: unknown): value is Static<S> {
  return checkOf(schema)(value);
}

/** `value` typed by `schema`, or an error naming what does not conform. */
export function conform<S extends TSchema>(what: string, schema: S, value: unknown): Static<S> {
  if (conforms(schema, value)) return value;
  throw new Error(`${what}: the API answered an unexpected shape: ${problemsOf(schema, value)}`);
}
