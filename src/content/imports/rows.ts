import { AppError, badRequest } from '../../http/errors.js';

export type ImportKind = 'collections' | 'files' | 'items';

/** The whole batch is refused, naming the row: `{kind, index, code, reason}`; nothing is written. */
export function refuseRow(
  kind: ImportKind,
  index: number,
  code: string,
  reason: string,
  details?: unknown,
): AppError {
  return badRequest('import_row_refused', `${kind}[${index}]: ${reason}`, {
    kind,
    index,
    code,
    reason,
    ...(details === undefined ? {} : { details }),
  });
}

/** Runs a row's checks; a 400 they throw becomes the refusal of that row. */
export async function checkRow<T>(
  kind: ImportKind,
  index: number,
  check: () => Promise<T> | T,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof AppError && error.status === 400 && error.code !== 'import_row_refused') {
      throw refuseRow(kind, index, error.code, error.message, error.details);
    }
    throw error;
  }
}

export function pairKey(source: string, id: string): string {
  return JSON.stringify([source, id]);
}

/** Refuses a request that names one pair twice. */
export function checkUnique(
  kind: ImportKind,
  rows: ReadonlyArray<{ externalSource: string; externalId: string }>,
): void {
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const key = pairKey(row.externalSource, row.externalId);
    if (seen.has(key)) {
      throw refuseRow(kind, index, 'duplicate_external_id', 'This pair appears twice in the batch');
    }
    seen.add(key);
  });
}
