import { ApiError } from './client.js';

/** Where a refusal is shown: next to a field of the form, or above it. */
export interface Refusal {
  code: string;
  message: string;
  /** The form field the refusal is about; undefined: the form as a whole. */
  field: string | undefined;
}

function firstIssuePath(details: unknown): string | undefined {
  if (typeof details !== 'object' || details === null || !('issues' in details)) return undefined;
  const issues: unknown = details.issues;
  if (!Array.isArray(issues)) return undefined;
  const first: unknown = issues[0];
  if (typeof first !== 'object' || first === null || !('path' in first)) return undefined;
  return typeof first.path === 'string' ? first.path.split('/')[1] : undefined;
}

/**
 * The refusal of a mutation, placed on the field it names: a validation
 * issue names its property; some codes are about one field by nature.
 */
export function refusalOf(error: unknown, fieldsByCode: Record<string, string> = {}): Refusal {
  if (!(error instanceof ApiError)) {
    return { code: 'network_error', message: 'The server could not be reached', field: undefined };
  }
  const field = fieldsByCode[error.code] ?? firstIssuePath(error.details);
  return { code: error.code, message: error.message, field };
}
