import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';
import { isCheckedJsonBody } from './json-body.js';

/** Whether a string, or any key or string inside arrays and objects, holds a NUL character. */
export function containsNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (Array.isArray(value)) return value.some(containsNul);
  if (isParsedObject(value)) {
    return Object.entries(value).some(([key, inner]) => key.includes('\0') || containsNul(inner));
  }
  return false;
}

/** Parsed JSON, forms and query strings; not streams or bytes, which are not read here. */
function isParsedObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return false;
  return !('pipe' in value && typeof value.pipe === 'function');
}

export function refuseNul(value: unknown, where: string): void {
  if (containsNul(value)) {
    throw badRequest(
      'nul_character',
      `The ${where} contains the NUL character (U+0000), which cannot be stored`,
      { location: where },
    );
  }
}

/**
 * PostgreSQL stores no NUL character, in text or jsonb: one that reached a
 * query would fail it. Path parameters and query strings are refused before
 * anything reads them; JSON bodies in their parser (`json-body.ts`); other
 * parsed bodies (forms) before validation. Multipart uploads are read by
 * their handler (`multipart.ts`).
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    refuseNul(request.params, 'path');
    refuseNul(request.query, 'querystring');
  });
  app.addHook('preValidation', async (request) => {
    if (!isCheckedJsonBody(request)) refuseNul(request.body, 'body');
  });
}
