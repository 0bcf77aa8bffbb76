/**
 * An error a service throws to answer the request: an HTTP status, a stable
 * machine-readable code and a message for humans. The error handler turns it
 * into the Error schema; anything else that escapes is a 500.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export function badRequest(code: string, message: string, details?: unknown): AppError {
  return new AppError(400, code, message, details);
}

export function unauthorized(code: string, message: string): AppError {
  return new AppError(401, code, message);
}

export function forbidden(code: string, message: string, details?: unknown): AppError {
  return new AppError(403, code, message, details);
}

export function notFound(what: string, details?: unknown): AppError {
  return new AppError(404, 'not_found', `${what} not found`, details);
}

export function conflict(code: string, message: string, details?: unknown): AppError {
  return new AppError(409, code, message, details);
}
