import { sql } from 'kysely';
import type { Database } from '../../../db/schema.js';
import type { Changes } from '../../../events/types.js';
import { type EventScope, planEvents } from '../../../events/writer.js';
import { nextItemNumber } from '../../workspaces/numbers.js';
import type { Body } from '../body.js';
import { type ItemDetailRow, toItemDetail } from '../repository.js';
import type { ItemDetail } from '../schemas.js';
import { createdChanges } from './state.js';

/** A card to create, its values checked by the caller. */
export interface NewCard {
  id: string;
  collectionId: string;
  title: string;
  statusId: string;
  parentId: string | null;
  /** Validated values, keyed by field key. */
  properties: Record<string, unknown>;
  content: Body;
  icon: string | null;
  sortKey: string;
  archivedAt: Date | null;
  createdBy: string | null;
  external?: { source: string; id: string };
  /** Secondary lists, in the order the card joins them (a copy keeps its original's). */
  collectionIds?: readonly string[];
  /** More for its `item.created` event (a copy's `duplicatedFrom`). */
  note?: Changes;
}

/**
 * Creates cards in one INSERT (numbers from the workspace's sequence; a
 * parent created in the same call is fine, the foreign key is checked at the
 * end of the statement), attaches their secondary lists, and writes one
 * `item.created` per card. Returns the cards in the order given.
 */
export async function insertCards(
  db: Database,
  scope: EventScope,
  cards: readonly NewCard[],
): Promise<ItemDetail[]> {
  if (cards.length === 0) return [];
  if (!db.isTransaction) throw new Error('insertCards must run in the transaction of the change');
  // The events are written by the statement that inserts the cards; each
  // gets its card's number from it.
  const events = planEvents(
    scope,
    cards.map((card) => ({
      type: 'item.created',
      resource: { kind: 'item', id: card.id },
      changes: {
        ...createdChanges({
          title: card.title,
          collectionId: card.collectionId,
          statusId: card.statusId,
          parentId: card.parentId,
          icon: card.icon,
          sortKey: card.sortKey,
          body: card.content.body,
          collectionIds: [...(card.collectionIds ?? [])],
          archivedAt: card.archivedAt?.toISOString() ?? null,
          properties: card.properties,
        }),
        ...card.note,
      },
    })),
  );
  const { rows } = await sql<Omit<ItemDetailRow, 'collection_ids'> & Record<string, unknown>>`
    with inserted as (
      insert into items (id, workspace_id, collection_id, number, title, status_id, parent_id, properties,
                         blocks, body, icon, sort_key, archived_at, created_by, external_source, external_id)
      select input.id, ${scope.workspaceId}, input.collection_id, ${nextItemNumber(scope.workspaceId)},
             input.title, input.status_id, input.parent_id, input.properties::jsonb, input.blocks::jsonb,
             input.body, input.icon, input.sort_key, input.archived_at, input.created_by,
             input.external_source, input.external_id
      from unnest(
        ${cards.map((card) => card.id)}::uuid[],
        ${cards.map((card) => card.collectionId)}::uuid[],
        ${cards.map((card) => card.title)}::text[],
        ${cards.map((card) => card.statusId)}::uuid[],
        ${cards.map((card) => card.parentId)}::uuid[],
        ${cards.map((card) => JSON.stringify(card.properties))}::text[],
        ${cards.map((card) => JSON.stringify(card.content.blocks))}::text[],
        ${cards.map((card) => card.content.body)}::text[],
        ${cards.map((card) => card.icon)}::text[],
        ${cards.map((card) => card.sortKey)}::text[],
        ${cards.map((card) => card.archivedAt?.toISOString() ?? null)}::timestamptz[],
        ${cards.map((card) => card.createdBy)}::uuid[],
        ${cards.map((card) => card.external?.source ?? null)}::text[],
        ${cards.map((card) => card.external?.id ?? null)}::text[]
      ) with ordinality as input (id, collection_id, title, status_id, parent_id, properties, blocks, body, icon,
                                  sort_key, archived_at, created_by, external_source, external_id, ordinal)
      order by input.ordinal
      returning *
    ),
    logged as (
      ${events.insert({
        source: 'inserted',
        changes: sql`jsonb_build_object('number', jsonb_build_object('before', null, 'after', inserted.number))`,
      })}
    )
    select inserted.*, collections.key_prefix, looked.*
    from inserted join collections on collections.id = inserted.collection_id
    cross join (select ${events.lookups}) as looked`.execute(db);
  const attachments = cards.flatMap((card) =>
    (card.collectionIds ?? []).map((collectionId) => ({ itemId: card.id, collectionId })),
  );
  if (attachments.length > 0) {
    await db
      .insertInto('item_collections')
      .values(
        attachments.map((attachment) => ({
          item_id: attachment.itemId,
          collection_id: attachment.collectionId,
          workspace_id: scope.workspaceId,
        })),
      )
      .execute();
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const items = cards.map((card) => {
    const row = byId.get(card.id);
    if (row === undefined) throw new Error(`card ${card.id} was not inserted`);
    return toItemDetail({ ...row, collection_ids: [...(card.collectionIds ?? [])] });
  });
  for (const [index, record] of events.records.entries()) {
    const number = items[index]?.number;
    record.changes = { ...record.changes, number: { before: null, after: number } };
  }
  await events.finish(db, rows[0]);
  return items;
}
