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
  };
}

/** The served description under a client's root (`t.http` or `t.api`). */
export async function servedDescription(client: {
  get(path: '/openapi.json'): Promise<{ status: number; text: string }>;
}): Promise<ServedDescription> {
  const response = await client.get('/openapi.json');
  expect(response.status).toBe(200);
  return JSON.parse(response.text) as ServedDescription;
}
