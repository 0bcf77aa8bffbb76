import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';

/**
 * How a write holds its workspace's registry (fields, their options,
 * statuses) until it commits:
 * - `shared`: it validates against the registry (a card's properties and
 *   status, a view's filter, a list's fields); many run at once;
 * - `exclusive`: it removes from the registry (a field, options, a status),
 *   so no write that validated against what it removes is still running,
 *   and none starts until it has committed.
 * Each race ends with one side refused or waiting for the other, never both
 * committed: a card written with a field's key while the field is deleted
 * is either written first (and the deletion then removes the key from it)
 * or refused (`unknown_property`).
 */
export type RegistryHold = 'shared' | 'exclusive';

/** Arbitrary but fixed: keeps these advisory locks apart from the event log's. */
const LOCK_SEED = 7042;

/**
 * Takes the workspace's registry lock for the rest of the transaction. It
 * must come before any row lock the write takes (items, lists), so that a
 * removal, which locks the registry and then the rows it cleans, never waits
 * in a cycle with a card write.
 */
export async function holdRegistry(
  db: Database,
  workspaceId: string,
  hold: RegistryHold,
): Promise<void> {
  if (!db.isTransaction) throw new Error('holdRegistry must run in the transaction of the write');
  const key = sql`hashtextextended(${workspaceId}, ${LOCK_SEED})`;
  if (hold === 'shared') await sql`select pg_advisory_xact_lock_shared(${key})`.execute(db);
  else await sql`select pg_advisory_xact_lock(${key})`.execute(db);
}
