import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import { spreadKeyBetween } from './order.js';

/**
 * A sort key in the home list `collectionId`: after `afterItemId` (which must
 * be in that list), first for null, last when undefined. No lock: writers
 * placing cards at the same spot at the same moment read the same
 * neighbours, and the random digits of a spread key keep their keys apart
 * (ties, should any arise, sort by id).
 */
export async function placeInList(
  db: Database,
  collectionId: string,
  afterItemId: string | null | undefined,
  movingItemId?: string,
): Promise<string> {
  const others = db
    .selectFrom('items')
    .select('sort_key')
    .where('collection_id', '=', collectionId)
    .$if(movingItemId !== undefined, (query) => query.where('id', '!=', movingItemId ?? ''));
  if (afterItemId === undefined) {
    const last = await others.orderBy(sql`sort_key`, 'desc').limit(1).executeTakeFirst();
    return spreadKeyBetween(last?.sort_key ?? null, null);
  }
  if (afterItemId === null) {
    const first = await others.orderBy(sql`sort_key`, 'asc').limit(1).executeTakeFirst();
    return spreadKeyBetween(null, first?.sort_key ?? null);
  }
  if (afterItemId === movingItemId) {
    throw badRequest('invalid_after_item', 'An item cannot be placed after itself', {
      afterItemId,
    });
  }
  const after = await db
    .selectFrom('items')
    .select('sort_key')
    .where('id', '=', afterItemId)
    .where('collection_id', '=', collectionId)
    .executeTakeFirst();
  if (after === undefined) {
    throw badRequest('invalid_after_item', 'afterItemId must be an item of the same home list', {
      afterItemId,
    });
  }
  const next = await others
    .where(sql<boolean>`sort_key > ${after.sort_key}`)
    .orderBy(sql`sort_key`, 'asc')
    .limit(1)
    .executeTakeFirst();
  return spreadKeyBetween(after.sort_key, next?.sort_key ?? null);
}
