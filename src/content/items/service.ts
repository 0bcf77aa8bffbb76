import type { Database } from '../../db/schema.js';
import { deleted } from '../../events/changes.js';
import { recordEvents } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { type WorkspaceRegistry, workspaceRegistry } from '../fields/registry-cache.js';
import { resolveBody } from './body.js';
import { placeInList } from './placement.js';
import { validateProperties } from './properties.js';
import * as repository from './repository.js';
import type { CreateItem, ItemDetail, UpdateItem } from './schemas.js';
import { insertCards } from './write/insert.js';
import { lockCards, updateCards } from './write/update.js';

export function itemScope(access: WorkspaceAccess, batchId?: string | null) {
  return {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId: batchId ?? null,
  };
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

const KEY = /^([A-Za-z][A-Za-z0-9]*)-([0-9]+)$/;

/** A card by its id or by its key (`ENG-12`): the number, under the prefix its home list has now. */
export async function getItemByIdOrKey(
  db: Database,
  workspaceId: string,
  idOrKey: string,
): Promise<ItemDetail> {
  const key = KEY.exec(idOrKey);
  if (key === null) return getItem(db, workspaceId, idOrKey);
  const [, prefix = '', number = ''] = key;
  const row = await repository.findItemDetailByKey(db, workspaceId, prefix.toUpperCase(), number);
  if (row === undefined) throw notFound('Item');
  return repository.toItemDetail(row);
}

function checkStatus(workspace: WorkspaceRegistry, statusId: string): void {
  if (!workspace.statusOrder.includes(statusId.toLowerCase())) {
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
  const workspace = await workspaceRegistry(db, access);
  if (!workspace.collectionIds.has(collectionId.toLowerCase())) throw notFound('Collection');
  const content = (await resolveBody(db, workspaceId, input)) ?? {
    blocks: { blocks: [] },
    body: '',
  };
  const statusId = input.statusId ?? workspace.statusOrder[0];
  if (statusId === undefined) throw new Error(`workspace ${workspaceId} has no status`);
  checkStatus(workspace, statusId);
  if (input.parentId) await checkParent(db, workspaceId, input.parentId);
  const properties = await validateProperties(
    db,
    workspaceId,
    workspace.registry,
    input.properties ?? {},
    false,
  );
  const [item] = await insertCards(db, itemScope(access), [
    {
      id: newId(),
      collectionId,
      title: input.title.trim(),
      statusId,
      parentId: input.parentId ?? null,
      properties,
      content,
      icon: input.icon ?? null,
      sortKey: await placeInList(db, collectionId, input.afterItemId),
      archivedAt: null,
      createdBy: access.userId,
    },
  ]);
  if (item === undefined) throw new Error('the card was not created');
  return item;
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
  // Before the row lock, which gives the transaction an id: a registry read
  // until then may be kept in the app's cache.
  const workspace = await workspaceRegistry(db, access);
  const [before] = await lockCards(db, workspaceId, [itemId], true);
  if (before === undefined) throw notFound('Item');
  const content = await resolveBody(db, workspaceId, input);
  if (input.statusId !== undefined) checkStatus(workspace, input.statusId);
  if (input.parentId) await checkParent(db, workspaceId, input.parentId, itemId);
  const properties =
    input.properties === undefined
      ? undefined
      : await validateProperties(db, workspaceId, workspace.registry, input.properties, true);
  const sortKey =
    input.afterItemId === undefined
      ? undefined
      : await placeInList(db, before.collection_id, input.afterItemId, itemId);
  await updateCards(
    db,
    itemScope(access),
    [
      {
        id: itemId,
        title: input.title,
        statusId: input.statusId,
        icon: input.icon,
        archived: input.archived,
        content,
        properties,
        parentId: input.parentId,
        sortKey,
      },
    ],
    [before],
  );
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
