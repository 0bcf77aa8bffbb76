import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { badRequest } from '../../http/errors.js';
import type { Position } from './compile-order.js';

/**
 * Opaque keyset cursors: the last row's sort values, sort key and id, and a
 * digest of what they were issued for, signed with an instance secret. A
 * malformed, tampered or foreign cursor is 400 `invalid_cursor`.
 */

export type Segment = 'values' | 'nulls';

export interface CursorState {
  position: Position;
  /** Whether the last row's first sort key was null (the null segment comes last). */
  segment: Segment;
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${stable(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a cursor is bound to: the list, the filter and sort, and the group for grouped pages. */
export function cursorScope(parts: Record<string, unknown>): string {
  return createHash('sha256').update(stable(parts)).digest('base64url').slice(0, 22);
}

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

function invalid(): Error {
  return badRequest(
    'invalid_cursor',
    'The cursor is malformed, was altered, or belongs to another query',
  );
}

export function encodeCursor(secret: string, scope: string, state: CursorState): string {
  const payload = Buffer.from(
    JSON.stringify({
      s: scope,
      g: state.segment,
      v: state.position.values,
      k: state.position.sortKey,
      i: state.position.id,
    }),
  ).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

export function decodeCursor(secret: string, scope: string, cursor: string): CursorState {
  const [payload, signature, ...rest] = cursor.split('.');
  if (payload === undefined || signature === undefined || rest.length > 0) throw invalid();
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  let data: unknown;
  try {
    data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof data !== 'object' || data === null) throw invalid();
  const { s, g, v, k, i } = data as Record<string, unknown>;
  if (s !== scope) throw invalid();
  if (
    (g !== 'values' && g !== 'nulls') ||
    !Array.isArray(v) ||
    typeof k !== 'string' ||
    typeof i !== 'string'
  ) {
    throw invalid();
  }
  return { segment: g, position: { values: v, sortKey: k, id: i } };
}
