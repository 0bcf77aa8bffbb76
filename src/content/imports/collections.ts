import type { Database } from '../../db/schema.js';
import type { EventScope } from '../../events/writer.js';
import { writeCollectionsByPair } from '../collections/pairs.js';
import { checkUnique, type PairedImport, pairedImport, refuseRow } from './rows.js';
import type { ImportCollection } from './schemas.js';

/** Creates or updates lists by their external pair, through the collections module, logged under `scope`. */
export async function importCollections(
  db: Database,
  scope: EventScope,
  rows: readonly ImportCollection[],
): Promise<PairedImport> {
  if (rows.length === 0) return pairedImport([], []);
  checkUnique('collections', rows);
  const written = await writeCollectionsByPair(db, scope, rows, (index, code, reason, details) =>
    refuseRow('collections', index, code, reason, details),
  );
  return pairedImport(rows, written);
}
