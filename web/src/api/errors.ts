import { ApiError } from './client.js';

/** Where a refusal is shown: next to a field of the form, or above it. */
export interface Refusal {
  code: string;
  message: string;
  /** The form field the refusal is about; undefined: the form as a whole. */
  field: string | undefined;
}

interface Issue {
  field: string;
  message: string;
}

/** The first issue of a validation refusal (`details.issues`), by the top-level property it names. */
function firstIssue(details: unknown): Issue | undefined {
  if (typeof details !== 'object' || details === null || !('issues' in details)) return undefined;
  const issues: unknown = details.issues;
  if (!Array.isArray(issues)) return undefined;
  const first: unknown = issues[0];
  if (typeof first !== 'object' || first === null) return undefined;
  if (!('path' in first) || !('message' in first)) return undefined;
  if (typeof first.path !== 'string' || typeof first.message !== 'string') return undefined;
  const field = first.path.split('/')[1];
  if (field === undefined || field === '') return undefined;
  return { field, message: first.message };
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/**
 * The refusal of a mutation, placed on the field it names: a validation
 * issue names its property; some codes are about one field by nature.
 */
export function refusalOf(error: unknown, fieldsByCode: Record<string, string> = {}): Refusal {
  if (!(error instanceof ApiError)) {
    return { code: 'network_error', message: 'The server could not be reached', field: undefined };
  }
  const byCode = fieldsByCode[error.code];
  if (byCode !== undefined) return { code: error.code, message: error.message, field: byCode };
  // Next to the field, its own issue reads better than the whole message ("Invalid body: /slug ...").
  const issue = firstIssue(error.details);
  if (issue !== undefined) {
    return { code: error.code, message: sentence(issue.message), field: issue.field };
  }
  return { code: error.code, message: error.message, field: undefined };
}
