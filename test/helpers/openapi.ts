import { expect } from 'vitest';
import type { HttpMethod } from './api-types.js';

/** An operation of the served description, as the tests read it. */
export interface ServedOperation {
  operationId?: string;
  description?: string;
  security?: Record<string, string[]>[];
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema?: unknown }> }
  >;
}

export type ServedPathItem = Partial<Record<HttpMethod, ServedOperation>> & {
  servers?: { url: string }[];
};

/**
 * The description the server serves at `/openapi.json`. The description
 * does not describe itself, so this read is typed here, with the parts the
 * tests look at.
 */
export interface ServedDescription {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, ServedPathItem>;
  components: {
    securitySchemes: Record<string, Record<string, unknown>>;
    schemas: Record<string, Record<string, unknown>>;
    responses: Record<string, ServedOperation['responses'][string]>;
  };
}

/**
 * The description with every local `$ref` replaced by what it names, for
 * readers that walk schemas as plain trees (the fuzz test). The components
 * refer to one another without cycles, so the copy is finite.
 */
export function withRefsInlined<T>(document: T): T {
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (value === null || typeof value !== 'object') return value;
    const ref = '$ref' in value ? value.$ref : undefined;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      return inline(resolvePointer(document, ref));
    }
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, inline(inner)]));
  };
  return inline(document) as T;
}

/** What a local JSON pointer (`#/components/schemas/Mark`) names in the document. */
function resolvePointer(document: unknown, ref: string): unknown {
  let node = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !(key in node)) {
      throw new Error(`${ref} names nothing in the description`);
    }
    const next: unknown = Reflect.get(node, key);
    node = next;
  }
  return node;
}

/** The served description under a client's root (`t.http` or `t.api`). */
export async function servedDescription(client: {
  get(path: '/openapi.json'): Promise<{ status: number; text: string }>;
}): Promise<ServedDescription> {
  const response = await client.get('/openapi.json');
  expect(response.status).toBe(200);
  return JSON.parse(response.text) as ServedDescription;
}
