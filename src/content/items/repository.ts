import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CollectionsTable } from '../collections/tables.js';
import type { Item, ItemDetail } from './schemas.js';
import type { ItemsTable } from './tables.js';

/** The item columns of a summary: all but the workspace and the body. */
const summaryFields = [
  'id',
  'collection_id',
  'number',
  'title',
  'status_id',
  'parent_id',
  'properties',
  'icon',
  'sort_key',
  'archived_at',
  'created_by',
  'external_source',
  'external_id',
  'created_at',
  'updated_at',
] as const;

const summaryColumns = [
  ...summaryFields.map((field) => `items.${field}` as const),
  'collections.key_prefix',
] as const;

/** An item with its home list's prefix and its secondary lists. */
export type ItemRow = Pick<Selectable<ItemsTable>, (typeof summaryFields)[number]> &
  Pick<Selectable<CollectionsTable>, 'key_prefix'> & { collection_ids: string[] };

export type ItemDetailRow = ItemRow & Pick<Selectable<ItemsTable>, 'blocks' | 'body'>;

/** Items with their home list's prefix and their secondary lists, in one query. */
export function selectItems(db: Database, workspaceId: string) {
  return db
    .selectFrom('items')
    .innerJoin('collections', 'collections.id', 'items.collection_id')
    .select(summaryColumns)
    .select(
      sql<
        string[]
      >`coalesce((select array_agg(ic.collection_id order by ic.created_at, ic.collection_id) from item_collections ic where ic.item_id = items.id), '{}')`.as(
        'collection_ids',
      ),
    )
    .where('items.workspace_id', '=', workspaceId);
}

export async function findItemDetail(
  db: Database,
  workspaceId: string,
  itemId: string,
): Promise<ItemDetailRow | undefined> {
  return selectItems(db, workspaceId)
    .select(['items.blocks', 'items.body'])
    .where('items.id', '=', itemId)
    .executeTakeFirst();
}

/** The card with this number whose home list has this prefix. */
export async function findItemDetailByKey(
  db: Database,
  workspaceId: string,
  prefix: string,
  number: string,
): Promise<ItemDetailRow | undefined> {
  return selectItems(db, workspaceId)
    .select(['items.blocks', 'items.body'])
    .where('items.number', '=', sql<number>`cast(${number} as bigint)`)
    .where('collections.key_prefix', '=', prefix)
    .executeTakeFirst();
}

export function toItem(row: ItemRow): Item {
  return {
    id: row.id,
    key: `${row.key_prefix}-${row.number}`,
    number: Number(row.number),
    collectionId: row.collection_id,
    collectionIds: row.collection_ids,
    title: row.title,
    statusId: row.status_id,
    parentId: row.parent_id,
    properties: row.properties,
    icon: row.icon,
    sortKey: row.sort_key,
    archived: row.archived_at !== null,
    archivedAt: row.archived_at?.toISOString() ?? null,
    createdBy: row.created_by,
    externalSource: row.external_source,
    externalId: row.external_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toItemDetail(row: ItemDetailRow): ItemDetail {
  return { ...toItem(row), blocks: row.blocks, body: row.body };
}

/** The stored item row, locked for the rest of the transaction. */
export async function lockItem(db: Database, workspaceId: string, itemId: string) {
  return db
    .selectFrom('items')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', itemId)
    .forUpdate()
    .executeTakeFirst();
}

export async function itemExists(
  db: Database,
  workspaceId: string,
  itemId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('items')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', itemId)
    .executeTakeFirst();
  return row !== undefined;
}

/** True when `candidate` is `itemId` itself or one of its descendants. */
export async function isSelfOrDescendant(
  db: Database,
  itemId: string,
  candidate: string,
): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    with recursive ancestors (id, parent_id) as (
      select id, parent_id from items where id = ${candidate}
      union all
      select items.id, items.parent_id from items join ancestors on items.id = ancestors.parent_id
    )
    select exists (select 1 from ancestors where id = ${itemId}) as found`.execute(db);
  return rows[0]?.found === true;
}

/** Ids of the items in the subtree under `rootIds` (the roots included). */
export async function subtreeIds(
  db: Database,
  rootIds: readonly string[],
  skipArchived = false,
): Promise<string[]> {
  if (rootIds.length === 0) return [];
  const archived = skipArchived ? sql`and items.archived_at is null` : sql``;
  const { rows } = await sql<{ id: string }>`
    with recursive tree (id) as (
      select id from items where id = any(${[...rootIds]}::uuid[])
      union all
      select items.id from items join tree on items.parent_id = tree.id where true ${archived}
    )
    select id from tree`.execute(db);
  return rows.map((row) => row.id);
}

export async function findItemDetails(
  db: Database,
  workspaceId: string,
  itemIds: readonly string[],
): Promise<ItemDetailRow[]> {
  if (itemIds.length === 0) return [];
  return selectItems(db, workspaceId)
    .select(['items.blocks', 'items.body'])
    .where('items.id', 'in', [...itemIds])
    .execute();
}
