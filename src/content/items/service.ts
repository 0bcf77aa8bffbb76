import { sql } from 'kysely';
import { jsonb } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import { created, deleted, diff, diffProperties, sameJson } from '../../events/changes.js';
import type { Changes, EventInput } from '../../events/types.js';
import { recordEvent, recordEvents } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { requireCollection } from '../collections/service.js';
import { loadRegistry } from '../fields/registry.js';
import { defaultStatusId, findStatus } from '../statuses/service.js';
import { takeItemNumbers } from '../workspaces/service.js';
import { resolveBody } from './body.js';
import { placeInList } from './placement.js';
import { mergeProperties, validateProperties } from './properties.js';
import * as repository from './repository.js';
import type { CreateItem, ItemDetail, UpdateItem } from './schemas.js';

export function itemScope(access: WorkspaceAccess, batchId?: string | null) {
  return { workspaceId: access.workspaceId, actor: access.actor, batchId: batchId ?? null };
}

function propertyChanges(properties: Record<string, unknown>): Changes {
  return diffProperties({}, properties);
}

export async function getItem(
  db: Database,
  workspaceId: string,
  itemId: string,
): Promise<ItemDetail> {
  const row = await repository.findItemDetail(db, workspaceId, itemId);
  if (row === undefined) throw notFound('Item');
  return repository.toItemDetail(row);
}

async function checkStatus(db: Database, workspaceId: string, statusId: string): Promise<void> {
  if ((await findStatus(db, workspaceId, statusId)) === undefined) {
    throw badRequest('invalid_status', 'statusId is not a status of this workspace', { statusId });
  }
}

/** A parent must be an item of the workspace and must not be the item or one of its descendants. */
async function checkParent(
  db: Database,
  workspaceId: string,
  parentId: string,
  itemId?: string,
): Promise<void> {
  if (!(await repository.itemExists(db, workspaceId, parentId))) {
    throw badRequest('invalid_parent', 'parentId is not an item of this workspace', { parentId });
  }
  if (itemId !== undefined && (await repository.isSelfOrDescendant(db, itemId, parentId))) {
    throw badRequest(
      'invalid_parent',
      'An item cannot be placed under itself or one of its sub-items',
      { parentId },
    );
  }
}

export async function createItem(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  input: CreateItem,
): Promise<ItemDetail> {
  const workspaceId = access.workspaceId;
  const collection = await requireCollection(db, workspaceId, collectionId);
  const content = (await resolveBody(db, workspaceId, input)) ?? {
    blocks: { blocks: [] },
    body: '',
  };
  const statusId = input.statusId ?? (await defaultStatusId(db, workspaceId));
  if (input.statusId !== undefined) await checkStatus(db, workspaceId, statusId);
  if (input.parentId) await checkParent(db, workspaceId, input.parentId);
  const registry = await loadRegistry(db, workspaceId);
  const properties = await validateProperties(
    db,
    workspaceId,
    registry,
    input.properties ?? {},
    false,
  );
  // List lock before the workspace counter, the order duplicate and import take them in.
  const sortKey = await placeInList(db, collectionId, input.afterItemId);
  const number = await takeItemNumbers(db, workspaceId, 1);
  const id = newId();
  const row = await db
    .insertInto('items')
    .values({
      id,
      workspace_id: workspaceId,
      collection_id: collectionId,
      number,
      title: input.title.trim(),
      status_id: statusId,
      parent_id: input.parentId ?? null,
      properties: jsonb(properties),
      blocks: jsonb(content.blocks),
      body: content.body,
      icon: input.icon ?? null,
      sort_key: sortKey,
      created_by: access.userId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const item = repository.toItemDetail({
    ...row,
    key_prefix: collection.keyPrefix,
    collection_ids: [],
  });
  await recordEvent(db, itemScope(access), {
    type: 'item.created',
    resource: { kind: 'item', id },
    changes: { ...created(createdValues(item)), ...propertyChanges(item.properties) },
  });
  return item;
}

/** What an `item.created` event reports besides the properties. */
export function createdValues(item: ItemDetail): Record<string, unknown> {
  return {
    title: item.title,
    number: item.number,
    collectionId: item.collectionId,
    statusId: item.statusId,
    parentId: item.parentId,
    icon: item.icon,
    sortKey: item.sortKey,
    body: item.body,
    collectionIds: item.collectionIds.length > 0 ? item.collectionIds : null,
  };
}

/**
 * Applies a PATCH: only named fields change; properties merge (null removes);
 * a change of parent or order is an `item.moved` event, the rest `item.updated`.
 */
export async function updateItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
  input: UpdateItem,
): Promise<ItemDetail> {
  const workspaceId = access.workspaceId;
  const before = await repository.lockItem(db, workspaceId, itemId);
  if (before === undefined) throw notFound('Item');
  const content = await resolveBody(db, workspaceId, input);
  if (input.statusId !== undefined) await checkStatus(db, workspaceId, input.statusId);
  if (input.parentId) await checkParent(db, workspaceId, input.parentId, itemId);
  let properties = before.properties;
  if (input.properties !== undefined) {
    const registry = await loadRegistry(db, workspaceId);
    const changes = await validateProperties(db, workspaceId, registry, input.properties, true);
    properties = mergeProperties(before.properties, changes);
  }
  const sortKey =
    input.afterItemId === undefined
      ? before.sort_key
      : await placeInList(db, before.collection_id, input.afterItemId, itemId);
  const archivedAt =
    input.archived === undefined
      ? before.archived_at
      : input.archived
        ? (before.archived_at ?? new Date())
        : null;
  const next = {
    title: input.title?.trim() ?? before.title,
    statusId: input.statusId ?? before.status_id,
    icon: input.icon === undefined ? before.icon : input.icon,
    body: content?.body ?? before.body,
    archivedAt: archivedAt?.toISOString() ?? null,
    parentId: input.parentId === undefined ? before.parent_id : input.parentId,
    sortKey,
  };
  const previous = {
    title: before.title,
    statusId: before.status_id,
    icon: before.icon,
    body: before.body,
    archivedAt: before.archived_at?.toISOString() ?? null,
    parentId: before.parent_id,
    sortKey: before.sort_key,
  };
  const updated = {
    ...diff(previous, next, ['title', 'statusId', 'icon', 'body', 'archivedAt']),
    ...diffProperties(before.properties, properties),
  };
  const moved = diff(previous, next, ['parentId', 'sortKey']);
  const blocksChanged = content !== undefined && !sameJson(content.blocks, before.blocks);
  if (blocksChanged && updated.body === undefined)
    updated.blocks = { before: before.blocks, after: content?.blocks };
  if (Object.keys(updated).length === 0 && Object.keys(moved).length === 0 && !blocksChanged) {
    return getItem(db, workspaceId, itemId);
  }
  await db
    .updateTable('items')
    .set({
      title: next.title,
      status_id: next.statusId,
      icon: next.icon,
      parent_id: next.parentId,
      sort_key: next.sortKey,
      archived_at: archivedAt,
      properties: jsonb(properties),
      ...(content === undefined ? {} : { blocks: jsonb(content.blocks), body: content.body }),
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', itemId)
    .execute();
  const events: EventInput[] = [];
  if (Object.keys(updated).length > 0) {
    events.push({ type: 'item.updated', resource: { kind: 'item', id: itemId }, changes: updated });
  }
  if (Object.keys(moved).length > 0)
    events.push({ type: 'item.moved', resource: { kind: 'item', id: itemId }, changes: moved });
  await recordEvents(db, itemScope(access), events);
  return getItem(db, workspaceId, itemId);
}

/** Deletes the item and its whole subtree; one `item.deleted` per card, batched when several. */
export async function deleteItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
): Promise<void> {
  const root = await repository.lockItem(db, access.workspaceId, itemId);
  if (root === undefined) throw notFound('Item');
  const ids = await repository.subtreeIds(db, [itemId]);
  const rows = await db
    .selectFrom('items')
    .select(['id', 'title', 'number', 'collection_id', 'parent_id'])
    .where('id', 'in', ids)
    .execute();
  await db.deleteFrom('items').where('id', '=', itemId).execute();
  await recordEvents(
    db,
    itemScope(access, rows.length > 1 ? newId() : null),
    rows.map((row) => ({
      type: 'item.deleted',
      resource: { kind: 'item', id: row.id },
      changes: deleted({
        title: row.title,
        number: Number(row.number),
        collectionId: row.collection_id,
        parentId: row.parent_id,
      }),
    })),
  );
}
