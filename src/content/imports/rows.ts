import { AppError, badRequest } from '../../http/errors.js';
import type { Outcome } from './schemas.js';

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

/** What one kind of row of a batch came to: its outcomes, and each pair's id for later rows. */
export interface PairedImport {
  outcomes: Outcome[];
  /** Pair key to the written row's id, for rows of the same batch that refer to it. */
  ids: Map<string, string>;
}

/** The outcomes of rows written by pair, in the batch's order (`written[i]` is row `i`'s). */
export function pairedImport(
  rows: ReadonlyArray<{ externalSource: string; externalId: string }>,
  written: ReadonlyArray<{ id: string; outcome: Outcome['outcome'] } | undefined>,
): PairedImport {
  const result: PairedImport = { outcomes: [], ids: new Map() };
  for (const [index, { externalSource, externalId }] of rows.entries()) {
    const entry = written[index];
    if (entry === undefined) continue;
    result.ids.set(pairKey(externalSource, externalId), entry.id);
    result.outcomes.push({ externalSource, externalId, id: entry.id, outcome: entry.outcome });
  }
  return result;
}
