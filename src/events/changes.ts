import { isDeepStrictEqual } from 'node:util';
import type { Changes } from './types.js';

/**
 * Whether two JSON values are the same document: key order does not count
 * (PostgreSQL's jsonb stores keys in an order of its own) and neither does a
 * key whose value is undefined (JSON has none).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(asJson(a), asJson(b));
}

function asJson(value: unknown): unknown {
  return value === undefined ? null : JSON.parse(JSON.stringify(value));
}

/** `{key: {before, after}}` for each listed key whose value differs. */
export function diff<T extends object>(
  before: T,
  after: T,
  keys: readonly (keyof T & string)[],
): Changes {
  const changes: Changes = {};
  for (const key of keys) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (!isDeepStrictEqual(from, to)) changes[key] = { before: from, after: to };
  }
  return changes;
}

/** Changes of registry properties, each as `properties.<key>`. */
export function diffProperties(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Changes {
  const changes: Changes = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (!isDeepStrictEqual(from, to)) changes[`properties.${key}`] = { before: from, after: to };
  }
  return changes;
}

/** The changes of a creation: every given value, from null. */
export function created(values: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) changes[key] = { before: null, after: value };
  }
  return changes;
}

/** The changes of a deletion: every value, to null. */
export function deleted(values: Record<string, unknown>): Changes {
  const changes: Changes = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== null) changes[key] = { before: value, after: null };
  }
  return changes;
}
