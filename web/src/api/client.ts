import { createSparrowClient } from '@sparrow/client';
import type { components } from './schema.js';

/**
 * The typed client of the public API (`@sparrow/client`), at the content
 * root. Same origin as the app, so the browser sends the `session` cookie
 * and an `Origin` the server accepts for writes.
 */
export const api = createSparrowClient({ baseUrl: '', credentials: 'same-origin' });

type ErrorBody = components['schemas']['Error']['error'];

/** A refusal of the API, with its stable `code` and its message in words. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorBody['code'] | 'network_error';
  readonly details: unknown;

  constructor(status: number, body: ErrorBody | undefined) {
    super(body?.message ?? `The server answered ${status}`);
    this.status = status;
    this.code = body?.code ?? 'network_error';
    this.details = body?.details;
  }
}

interface Answer<T> {
  data?: T;
  error?: { error: ErrorBody } | unknown;
  response: Response;
}

function errorBodyOf(error: unknown): ErrorBody | undefined {
  if (typeof error !== 'object' || error === null || !('error' in error)) return undefined;
  const inner: unknown = error.error;
  if (typeof inner !== 'object' || inner === null) return undefined;
  if (!('code' in inner) || !('message' in inner)) return undefined;
  if (typeof inner.message !== 'string') return undefined;
  return inner as ErrorBody;
}

/** The answer's data, or the refusal thrown as an ApiError (for TanStack Query). */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw new ApiError(response.status, errorBodyOf(error));
  return data as T;
}
