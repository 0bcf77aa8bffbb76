import { assert } from 'vitest';
import type { ErrorEnvelope } from './api-types.js';

/**
 * The element at `index` (negative counts from the end), failing the test
 * when the list has none: a read under `noUncheckedIndexedAccess` that
 * checks what it reads.
 */
export function at<T>(items: readonly T[], index: number): T {
  const item = items.at(index);
  assert.isDefined(item, `no element at ${index} in a list of ${items.length}`);
  return item;
}

/** The value, failing the test when it is `null` or `undefined`. */
export function present<T>(value: T, what = 'value'): NonNullable<T> {
  assert.exists(value, `${what} is missing`);
  return value;
}

/** The `details` of a schema refusal (`validation_failed`), as src/http/error-handler.ts writes them. */
export interface ValidationDetails {
  location: string;
  issues: { path: string; message: string }[];
}

/** The first issue of a schema refusal (400 with `details.issues`), failing the test without one. */
export function firstIssue(body: ErrorEnvelope): ValidationDetails['issues'][number] {
  const details = body.error.details as Partial<ValidationDetails> | undefined;
  return at(details?.issues ?? [], 0);
}
