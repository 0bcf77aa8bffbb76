/** PostgreSQL error codes the services map to answers (pg and PGlite both expose them as `code`). */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_SERIALIZATION_FAILURE = '40001';
export const PG_DEADLOCK_DETECTED = '40P01';

export interface PgError {
  code: string;
  constraint?: string;
  message: string;
}

export function isPgError(error: unknown): error is PgError {
  return (
    error instanceof Error &&
    'code' in error &&
    typeof error.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(error.code)
  );
}

/** True for a unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (!isPgError(error) || error.code !== PG_UNIQUE_VIOLATION) return false;
  return constraint === undefined || error.constraint === constraint;
}
