import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FieldType } from '../fields/schemas.js';

/**
 * Indexes per property key, `(collection_id, (properties -> 'key'), sort_key, id)`:
 * they drive keyset pages sorted by the property (a descending page reads it
 * backwards), filters on it and kanban columns of a select. Multi-valued keys
 * get a GIN index on `(properties -> 'key')` for containment instead. They are not partial: the planner only uses the
 * statistics of non-partial expression indexes to estimate how selective a
 * filter on the property is, and a wrong guess picks the wrong index. One pair per key name serves every
 * workspace (the list id leads). They are built with CREATE INDEX CONCURRENTLY
 * by a background task, so adding a field never blocks writes; until ready,
 * queries are correct and slower.
 */

type Variant = 'asc' | 'gin';

const KEY = /^[a-z][a-z0-9_]{0,39}$/;

export function variantsFor(type: FieldType): Variant[] {
  if (type === 'multi_select' || type === 'multi_person') return ['gin'];
  return ['asc'];
}

export function indexName(key: string, variant: Variant): string {
  return `items_prop_${key}_${variant}`;
}

/** Asks for the indexes of a new field's key (in the field's transaction). */
export async function requestPropertyIndexes(
  db: Database,
  key: string,
  type: FieldType,
): Promise<void> {
  const variants = variantsFor(type);
  if (variants.length === 0) return;
  await db
    .insertInto('property_indexes')
    .values(variants.map((variant) => ({ key, variant, state: 'pending' })))
    .onConflict((conflict) => conflict.columns(['key', 'variant']).doNothing())
    .execute();
}

async function build(db: Database, key: string, variant: Variant): Promise<void> {
  if (!KEY.test(key)) throw new Error(`not a property key: ${key}`);
  const name = indexName(key, variant);
  // An earlier concurrent build that failed leaves an invalid index behind: drop it first.
  const { rows } = await sql<{ valid: boolean }>`
    select indisvalid as valid from pg_index join pg_class on pg_class.oid = pg_index.indexrelid
    where pg_class.relname = ${name}`.execute(db);
  if (rows[0]?.valid === false)
    await sql.raw(`drop index concurrently if exists ${name}`).execute(db);
  const definition =
    variant === 'gin'
      ? `using gin ((properties -> '${key}') jsonb_path_ops)`
      : `(collection_id, (properties -> '${key}') asc nulls last, sort_key, id)`;
  await sql
    .raw(`create index concurrently if not exists ${name} on items ${definition}`)
    .execute(db);
}

/** Builds every pending index (outside any transaction); returns how many were built. */
export async function buildPendingPropertyIndexes(db: Database): Promise<number> {
  const pending = await db
    .selectFrom('property_indexes')
    .select(['key', 'variant'])
    .where('state', '=', 'pending')
    .orderBy('requested_at')
    .execute();
  let built = 0;
  for (const { key, variant } of pending) {
    const claimed = variant === 'asc' || variant === 'gin' ? variant : null;
    if (claimed === null) continue;
    try {
      await build(db, key, claimed);
      await db
        .updateTable('property_indexes')
        .set({ state: 'ready', error: null, built_at: sql<Date>`now()` })
        .where('key', '=', key)
        .where('variant', '=', variant)
        .execute();
      built += 1;
    } catch (error) {
      await db
        .updateTable('property_indexes')
        .set({ state: 'failed', error: error instanceof Error ? error.message : String(error) })
        .where('key', '=', key)
        .where('variant', '=', variant)
        .execute();
    }
  }
  return built;
}
