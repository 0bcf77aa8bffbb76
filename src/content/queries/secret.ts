import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/schema.js';

/**
 * By database handle, not process-wide: a secret, once written, never
 * changes, so this only saves a read of a row every process shares anyway.
 */
const cache = new WeakMap<Database, Map<string, string>>();

/**
 * A random secret shared by every process on this database, made on first
 * use (cursor signatures must verify on any server behind the proxy).
 */
export async function instanceSecret(db: Database, name: string): Promise<string> {
  const known = cache.get(db)?.get(name);
  if (known !== undefined) return known;
  await db
    .insertInto('instance_secrets')
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('instance_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  const secrets = cache.get(db) ?? new Map<string, string>();
  secrets.set(name, row.value);
  cache.set(db, secrets);
  return row.value;
}
