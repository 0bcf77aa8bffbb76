import type { Selectable } from 'kysely';
import { created, diff, diffProperties, sameJson } from '../../../events/changes.js';
import type { Changes } from '../../../events/types.js';
import type { BlockDocument } from '../block-schemas.js';
import type { ItemDetail } from '../schemas.js';
import type { ItemsTable } from '../tables.js';

/** A card's stored row; the body columns are read only when a write may change them. */
export type StoredCard = Omit<Selectable<ItemsTable>, 'blocks' | 'body'> &
  Partial<Pick<Selectable<ItemsTable>, 'blocks' | 'body'>>;

/**
 * What a write can change on a card, in the form its events compare and
 * report: trimmed title, ISO timestamps, properties and blocks compared as
 * JSON documents (key order does not count).
 */
export interface CardState {
  title: string;
  statusId: string;
  icon: string | null;
  archivedAt: string | null;
  properties: Record<string, unknown>;
  body: string | undefined;
  blocks: BlockDocument | undefined;
  collectionId: string;
  parentId: string | null;
  sortKey: string;
}

export function stateOf(row: StoredCard): CardState {
  return {
    title: row.title,
    statusId: row.status_id,
    icon: row.icon,
    archivedAt: row.archived_at?.toISOString() ?? null,
    properties: row.properties,
    body: row.body,
    blocks: row.blocks,
    collectionId: row.collection_id,
    parentId: row.parent_id,
    sortKey: row.sort_key,
  };
}

const UPDATED = ['title', 'statusId', 'icon', 'body', 'archivedAt'] as const;
const MOVED = ['collectionId', 'parentId', 'sortKey'] as const;

/**
 * The changes between two states, split by the event that reports them:
 * `item.updated` (content, status, properties, archiving) and `item.moved`
 * (home list, parent, manual order). A new block document whose text is
 * unchanged is reported as `blocks`; when the text changes, `body` says it.
 */
export function cardChanges(
  before: CardState,
  after: CardState,
): { updated: Changes; moved: Changes } {
  const updated: Changes = {
    ...diff(before, after, UPDATED),
    ...diffProperties(before.properties, after.properties),
  };
  if (updated.body === undefined && !sameJson(before.blocks, after.blocks)) {
    updated.blocks = { before: before.blocks ?? null, after: after.blocks ?? null };
  }
  return { updated, moved: diff(before, after, MOVED) };
}

/** What a new card's `item.created` reports; its number only the inserting statement knows. */
export type CreatedCard = Pick<
  ItemDetail,
  | 'title'
  | 'collectionId'
  | 'statusId'
  | 'parentId'
  | 'icon'
  | 'sortKey'
  | 'body'
  | 'collectionIds'
  | 'archivedAt'
  | 'properties'
> & { number?: number };

/** What an `item.created` event reports: every value from null, properties as `properties.<key>`. */
export function createdChanges(item: CreatedCard): Changes {
  return {
    ...created({
      title: item.title,
      number: item.number,
      collectionId: item.collectionId,
      statusId: item.statusId,
      parentId: item.parentId,
      icon: item.icon,
      sortKey: item.sortKey,
      body: item.body,
      collectionIds: item.collectionIds.length > 0 ? item.collectionIds : null,
      archivedAt: item.archivedAt,
    }),
    ...diffProperties({}, item.properties),
  };
}
