import type { Database } from '../../db/schema.js';
import type { EventScope } from '../../events/writer.js';
import { writeCollectionsByPair } from '../collections/pairs.js';
import { checkUnique, pairKey, refuseRow } from './rows.js';
import type { ImportCollection, Outcome } from './schemas.js';

export interface CollectionImport {
  outcomes: Outcome[];
  /** Pair key to collection id, for items of the same batch. */
  ids: Map<string, string>;
}

/** Creates or updates lists by their external pair, through the collections module, logged under `scope`. */
export async function importCollections(
  db: Database,
  scope: EventScope,
  rows: readonly ImportCollection[],
): Promise<CollectionImport> {
  const result: CollectionImport = { outcomes: [], ids: new Map() };
  if (rows.length === 0) return result;
  checkUnique('collections', rows);
  const written = await writeCollectionsByPair(db, scope, rows, (index, code, reason, details) =>
    refuseRow('collections', index, code, reason, details),
  );
  for (const [index, row] of rows.entries()) {
    const entry = written[index];
    if (entry === undefined) continue;
    result.ids.set(pairKey(row.externalSource, row.externalId), entry.id);
    result.outcomes.push({
      externalSource: row.externalSource,
      externalId: row.externalId,
      id: entry.id,
      outcome: entry.outcome,
    });
  }
  return result;
}
