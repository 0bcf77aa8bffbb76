import { type CodeWithStatus, ERROR_CODES, type ErrorCode } from './error-codes.js';

/**
 * An error a service throws to answer the request: a code from the catalog
 * (`error-codes.ts`), which carries the HTTP status, and a message for
 * humans. The error handler turns it into the Error schema; anything else
 * that escapes is a 500.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

export function badRequest(
  code: CodeWithStatus<400>,
  message: string,
  details?: unknown,
): AppError {
  return new AppError(code, message, details);
}

export function unauthorized(
  code: CodeWithStatus<401>,
  message: string,
  details?: unknown,
): AppError {
  return new AppError(code, message, details);
}

export function forbidden(code: CodeWithStatus<403>, message: string, details?: unknown): AppError {
  return new AppError(code, message, details);
}

export function notFound(what: string, details?: unknown): AppError {
  return new AppError('not_found', `${what} not found`, details);
}

export function conflict(code: CodeWithStatus<409>, message: string, details?: unknown): AppError {
  return new AppError(code, message, details);
}
