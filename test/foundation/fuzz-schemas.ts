import { readFileSync } from 'node:fs';
import { withRefsInlined } from '../helpers/openapi.js';

/**
 * Values built from the JSON schemas of the committed API description, for
 * the fuzz test: samples a schema accepts (as far as a generator without a
 * regex engine can tell), values of a wrong type, seeded random ids.
 */

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

export interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  path: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, unknown>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Destructive operations last (deletions, then signing out), so the others meet live resources. */
function rank(operation: Operation): number {
  if (operation.path === '/auth/logout') return 2;
  return operation.method === 'DELETE' ? 1 : 0;
}

/** Every operation of the committed description, destructive ones last. */
export function loadOperations(): Operation[] {
  // Named schemas and shared responses are references; the generators walk plain trees.
  const document = withRefsInlined(
    JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')),
  ) as { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'>>> };
  return Object.entries(document.paths)
    .flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ ...operation, method: method.toUpperCase(), path })),
    )
    .sort((a, b) => rank(a) - rank(b));
}

/** mulberry32: a small seeded generator, so every run sends the same requests. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the generators draw on: ids of real resources by the name that carries them, a seeded generator. */
export interface Fuzzer {
  ids: Record<string, string>;
  random: () => number;
}

export function randomUuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(random() * 4)] ?? '8';
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

const STRING_CANDIDATES = [
  'sample',
  'SAMPLE',
  'S1',
  '#123456',
  '/path',
  'https://example.test/x',
  'ghcr.io/devcontainers/features/node:1',
  'a.b',
  '2026-01-01',
];

export function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

/** A value the schema accepts, as far as a generator without a regex engine can tell. */
export function sample(fuzzer: Fuzzer, schema: Schema, name = '', all = false): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum !== undefined) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) {
    const choice = union.find((option) => option.type !== 'null') ?? union[0];
    return choice === undefined ? null : sample(fuzzer, choice, name, all);
  }
  switch (typeOf(schema)) {
    case 'object': {
      const entries = Object.entries(schema.properties ?? {}).filter(
        ([key]) => all || (schema.required ?? []).includes(key),
      );
      return Object.fromEntries(
        entries.map(([key, inner]) => [key, sample(fuzzer, inner, key, all)]),
      );
    }
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, all ? 1 : 0);
      const items = schema.items ?? {};
      return Array.from({ length: Math.min(count, schema.maxItems ?? count) }, () =>
        sample(fuzzer, items, name, all),
      );
    }
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'string':
      return sampleString(fuzzer, schema, name);
    default:
      return 'sample';
  }
}

function sampleString(fuzzer: Fuzzer, schema: Schema, name: string): string {
  switch (schema.format) {
    case 'uuid':
      return fuzzer.ids[name] ?? randomUuid(fuzzer.random);
    case 'email':
      return `fuzz-${Math.floor(fuzzer.random() * 1e9)}@example.test`;
    case 'date-time':
      return '2026-01-01T00:00:00.000Z';
    case 'date':
      return '2026-01-01';
    case 'uri':
      return 'https://example.test/x';
  }
  const pattern = schema.pattern === undefined ? null : new RegExp(schema.pattern, 'u');
  const fits = (value: string) =>
    (pattern === null || pattern.test(value)) &&
    value.length >= (schema.minLength ?? 0) &&
    value.length <= (schema.maxLength ?? Number.POSITIVE_INFINITY);
  return STRING_CANDIDATES.find(fits) ?? 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
}

/** A value of another JSON type than the schema's. */
export function wrongType(schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return { unexpected: [1, 'two', null] };
  }
}

/** The value with every string in it (at any depth) changed. */
export function mapStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((inner) => mapStrings(inner, change));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, mapStrings(inner, change)]),
    );
  }
  return value;
}
