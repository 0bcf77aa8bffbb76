import { sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Changes, EventInput } from '../../../events/types.js';
import { type EventScope, recordEvents } from '../../../events/writer.js';
import type { Body } from '../body.js';
import { mergeProperties } from '../properties.js';
import { type CardState, cardChanges, type StoredCard, stateOf } from './state.js';

/** What one card's update asks; left out, a value stays. Values are checked by the caller. */
export interface CardUpdate {
  id: string;
  title?: string;
  statusId?: string;
  icon?: string | null;
  archived?: boolean;
  content?: Body;
  /** Validated property changes; null removes a property, the others are kept. */
  properties?: Record<string, unknown>;
  /** A new home list; the card leaves it as a secondary list if it was one. */
  collectionId?: string;
  parentId?: string | null;
  sortKey?: string;
}

function apply(before: CardState, update: CardUpdate, now: string): CardState {
  const archivedAt =
    update.archived === undefined
      ? before.archivedAt
      : update.archived
        ? (before.archivedAt ?? now)
        : null;
  return {
    title: update.title?.trim() ?? before.title,
    statusId: update.statusId ?? before.statusId,
    icon: update.icon === undefined ? before.icon : update.icon,
    archivedAt,
    properties:
      update.properties === undefined
        ? before.properties
        : mergeProperties(before.properties, update.properties),
    body: update.content?.body ?? before.body,
    blocks: update.content?.blocks ?? before.blocks,
    collectionId: update.collectionId ?? before.collectionId,
    parentId: update.parentId === undefined ? before.parentId : update.parentId,
    sortKey: update.sortKey ?? before.sortKey,
  };
}

/** The columns of a StoredCard, for a statement that locks the cards a write will update. */
export function storedCardColumns(withBody: boolean) {
  return sql`items.id, items.workspace_id, items.collection_id, items.number, items.title, items.status_id,
    items.parent_id, items.properties, items.icon, items.sort_key, items.archived_at, items.created_by,
    items.external_source, items.external_id, items.created_at, items.updated_at
    ${withBody ? sql`, items.blocks, items.body` : sql``}`;
}

/** The stored rows of these cards, locked for the rest of the transaction (in id order). */
export async function lockCards(
  db: Database,
  workspaceId: string,
  ids: readonly string[],
  withBody: boolean,
): Promise<StoredCard[]> {
  if (ids.length === 0) return [];
  const { rows } = await sql<StoredCard>`
    select ${storedCardColumns(withBody)}
    from items
    where workspace_id = ${workspaceId} and id = any(${[...ids]}::uuid[])
    order by id
    for update`.execute(db);
  return rows;
}

interface Changed {
  id: string;
  before: CardState;
  after: CardState;
  updated: Changes;
  moved: Changes;
  content: boolean;
}

/** One UPDATE for every changed card, setting only the columns some card changes. */
async function writeChanged(db: Database, changed: readonly Changed[]): Promise<void> {
  const touches = (key: string) =>
    changed.some((card) => card.updated[key] !== undefined || card.moved[key] !== undefined);
  const properties = changed.some((card) =>
    Object.keys(card.updated).some((key) => key.startsWith('properties.')),
  );
  const content = changed.some((card) => card.content);
  const sets = [
    touches('title') && sql`title = input.title`,
    touches('statusId') && sql`status_id = input.status_id`,
    touches('icon') && sql`icon = input.icon`,
    touches('archivedAt') && sql`archived_at = input.archived_at`,
    properties && sql`properties = input.properties::jsonb`,
    content && sql`blocks = coalesce(input.blocks::jsonb, items.blocks)`,
    content && sql`body = coalesce(input.body, items.body)`,
    touches('collectionId') && sql`collection_id = input.collection_id`,
    touches('parentId') && sql`parent_id = input.parent_id`,
    touches('sortKey') && sql`sort_key = input.sort_key`,
    sql`updated_at = now()`,
  ].filter((set) => set !== false);
  const after = changed.map((card) => card.after);
  await sql`
    update items set ${sql.join(sets)}
    from unnest(
      ${changed.map((card) => card.id)}::uuid[],
      ${after.map((state) => state.title)}::text[],
      ${after.map((state) => state.statusId)}::uuid[],
      ${after.map((state) => state.icon)}::text[],
      ${after.map((state) => state.archivedAt)}::timestamptz[],
      ${properties ? after.map((state) => JSON.stringify(state.properties)) : []}::text[],
      ${changed.map((card) => (card.content ? JSON.stringify(card.after.blocks) : null))}::text[],
      ${changed.map((card) => (card.content ? (card.after.body ?? '') : null))}::text[],
      ${after.map((state) => state.collectionId)}::uuid[],
      ${after.map((state) => state.parentId)}::uuid[],
      ${after.map((state) => state.sortKey)}::text[]
    ) as input (id, title, status_id, icon, archived_at, properties, blocks, body, collection_id, parent_id, sort_key)
    where items.id = input.id`.execute(db);
}

/**
 * A card moved home into a list it was attached to leaves that secondary
 * list; its `item.moved` reports the change of `collectionIds`.
 */
async function leaveNewHomes(db: Database, changed: readonly Changed[]): Promise<void> {
  const rehomed = changed.filter((card) => card.moved.collectionId !== undefined);
  if (rehomed.length === 0) return;
  const rows = await db
    .selectFrom('item_collections')
    .select(['item_id', 'collection_id'])
    .where(
      'item_id',
      'in',
      rehomed.map((card) => card.id),
    )
    .orderBy('created_at')
    .orderBy('collection_id')
    .execute();
  for (const card of rehomed) {
    const lists = rows.filter((row) => row.item_id === card.id).map((row) => row.collection_id);
    if (!lists.includes(card.after.collectionId)) continue;
    await db
      .deleteFrom('item_collections')
      .where('item_id', '=', card.id)
      .where('collection_id', '=', card.after.collectionId)
      .execute();
    card.moved.collectionIds = {
      before: lists,
      after: lists.filter((id) => id !== card.after.collectionId),
    };
  }
}

/**
 * Applies updates to cards in set-based statements: the rows are locked and
 * read once (or given, already locked, by the caller), each update is
 * applied and compared with what is stored on canonical values, and only the
 * cards that differ are written, in one UPDATE, with their `item.updated`
 * and `item.moved` events. An update that changes nothing writes and logs
 * nothing. Returns the ids of the cards that changed.
 */
export async function updateCards(
  db: Database,
  scope: EventScope,
  updates: readonly CardUpdate[],
  locked?: readonly StoredCard[],
): Promise<Set<string>> {
  if (updates.length === 0) return new Set();
  if (new Set(updates.map((update) => update.id)).size !== updates.length) {
    throw new Error('updateCards takes one update per card');
  }
  const withBody = updates.some((update) => update.content !== undefined);
  const rows =
    locked ??
    (await lockCards(
      db,
      scope.workspaceId,
      updates.map((update) => update.id),
      withBody,
    ));
  const stored = new Map(rows.map((row) => [row.id, row]));
  const now = new Date().toISOString();
  const changed: Changed[] = [];
  for (const update of updates) {
    const row = stored.get(update.id);
    if (row === undefined) throw new Error(`card ${update.id} is not locked for its update`);
    const before = stateOf(row);
    const after = apply(before, update, now);
    const { updated, moved } = cardChanges(before, after);
    if (Object.keys(updated).length === 0 && Object.keys(moved).length === 0) continue;
    const content = updated.body !== undefined || updated.blocks !== undefined;
    changed.push({ id: update.id, before, after, updated, moved, content });
  }
  if (changed.length === 0) return new Set();
  await writeChanged(db, changed);
  await leaveNewHomes(db, changed);
  const events: EventInput[] = changed.flatMap((card) => [
    ...(Object.keys(card.updated).length > 0
      ? [
          {
            type: 'item.updated' as const,
            resource: { kind: 'item' as const, id: card.id },
            changes: card.updated,
          },
        ]
      : []),
    ...(Object.keys(card.moved).length > 0
      ? [
          {
            type: 'item.moved' as const,
            resource: { kind: 'item' as const, id: card.id },
            changes: card.moved,
          },
        ]
      : []),
  ]);
  await recordEvents(db, scope, events);
  return new Set(changed.map((card) => card.id));
}
