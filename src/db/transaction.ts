import { isPgError, PG_DEADLOCK_DETECTED, PG_SERIALIZATION_FAILURE } from './errors.js';
import type { Database, Tx } from './schema.js';

const MAX_ATTEMPTS = 3;

/**
 * Runs `work` in one transaction and commits it, or rolls it back when `work`
 * throws. A deadlock or serialization failure is retried from the start, so
 * `work` must not have effects outside the transaction.
 * This is the one way the application opens a transaction.
 */
export async function inTransaction<T>(db: Database, work: (trx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      const retryable =
        isPgError(error) &&
        (error.code === PG_DEADLOCK_DETECTED || error.code === PG_SERIALIZATION_FAILURE);
      if (!retryable || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}
