import type { ErrorBody, ErrorCode } from './types.js';

/** The code given to an answer that is not the API's error body (a proxy's page, an empty body). */
export const UNEXPECTED_RESPONSE = 'unexpected_response';

/**
 * A refusal of the API: its HTTP status, its stable `code` (one of the
 * catalog's, typed), its message in words and its `details` when the
 * server gives any (which property, which option).
 */
export class SparrowError extends Error {
  override readonly name = 'SparrowError';
  readonly status: number;
  readonly code: ErrorCode | typeof UNEXPECTED_RESPONSE;
  readonly details: unknown;

  constructor(status: number, body: ErrorBody | undefined) {
    super(body?.message ?? `The server answered ${status}`);
    this.status = status;
    this.code = body?.code ?? UNEXPECTED_RESPONSE;
    this.details = body?.details;
  }

  /** The error of an answer whose body was read as JSON (or not at all). */
  static of(status: number, body: unknown): SparrowError {
    return new SparrowError(status, errorBodyOf(body));
  }
}

/** Whether `error` is a SparrowError, with this code when one is given. */
export function isSparrowError(error: unknown, code?: ErrorCode): error is SparrowError {
  return error instanceof SparrowError && (code === undefined || error.code === code);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return isRecord(value) && typeof value.code === 'string' && typeof value.message === 'string';
}

/** The `error` member of an error answer's body, when the body is one. */
export function errorBodyOf(body: unknown): ErrorBody | undefined {
  if (!isRecord(body)) return undefined;
  return isErrorBody(body.error) ? body.error : undefined;
}

/** What an openapi-fetch call resolves to. */
export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful answer, or the refusal thrown as a
 * SparrowError: `const item = await unwrap(sparrow.GET('/workspaces/{workspaceId}/items/{itemId}', ...))`.
 * A 204 resolves to `undefined`.
 */
export async function unwrap<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw SparrowError.of(response.status, error);
  // openapi-fetch types `data` of a success as T; it is undefined only for bodiless answers (204).
  return data as T;
}

/** The refusal of a raw `fetch` answer (a stream) that openapi-fetch did not read. */
export async function refusalOf(response: Response): Promise<SparrowError> {
  const text = await response.text().catch(() => '');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return SparrowError.of(response.status, body);
}
