import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { diff } from '../../events/changes.js';
import { recordEvent } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { requireCollection } from '../collections/service.js';
import { placeInList } from './placement.js';
import * as repository from './repository.js';
import type { ItemDetail, MoveItem } from './schemas.js';
import { getItem, itemScope } from './service.js';

async function attachedIds(db: Database, itemId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('item_collections')
    .select('collection_id')
    .where('item_id', '=', itemId)
    .orderBy('created_at')
    .orderBy('collection_id')
    .execute();
  return rows.map((row) => row.collection_id);
}

/**
 * Moves a card: a new home list (the number stays; the key takes the new
 * prefix), a new parent, a new place in manual order. One `item.moved` event.
 */
export async function moveItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
  input: MoveItem,
): Promise<ItemDetail> {
  const workspaceId = access.workspaceId;
  const before = await repository.lockItem(db, workspaceId, itemId);
  if (before === undefined) throw notFound('Item');
  const collectionId = input.collectionId ?? before.collection_id;
  if (collectionId !== before.collection_id) {
    await requireCollection(db, workspaceId, collectionId).catch(() => {
      throw badRequest('unknown_collection', 'collectionId is not a list of this workspace', {
        collectionId,
      });
    });
  }
  const parentId = input.parentId === undefined ? before.parent_id : input.parentId;
  if (input.parentId) {
    if (!(await repository.itemExists(db, workspaceId, input.parentId))) {
      throw badRequest('invalid_parent', 'parentId is not an item of this workspace', {
        parentId: input.parentId,
      });
    }
    if (await repository.isSelfOrDescendant(db, itemId, input.parentId)) {
      throw badRequest(
        'invalid_parent',
        'An item cannot be placed under itself or one of its sub-items',
        {
          parentId: input.parentId,
        },
      );
    }
  }
  const sortKey =
    input.afterItemId === undefined && collectionId === before.collection_id
      ? before.sort_key
      : await placeInList(db, collectionId, input.afterItemId, itemId);
  const changes = diff(
    { collectionId: before.collection_id, parentId: before.parent_id, sortKey: before.sort_key },
    { collectionId, parentId, sortKey },
    ['collectionId', 'parentId', 'sortKey'],
  );
  if (Object.keys(changes).length === 0) return getItem(db, workspaceId, itemId);
  await db
    .updateTable('items')
    .set({
      collection_id: collectionId,
      parent_id: parentId,
      sort_key: sortKey,
      updated_at: sql<Date>`now()`,
    })
    .where('id', '=', itemId)
    .execute();
  // The new home cannot also be a secondary list of the card.
  await db
    .deleteFrom('item_collections')
    .where('item_id', '=', itemId)
    .where('collection_id', '=', collectionId)
    .execute();
  await recordEvent(db, itemScope(access), {
    type: 'item.moved',
    resource: { kind: 'item', id: itemId },
    changes,
  });
  return getItem(db, workspaceId, itemId);
}

/** Attaches a card to a secondary list; attaching again changes nothing. */
export async function attachItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
  collectionId: string,
): Promise<ItemDetail> {
  const workspaceId = access.workspaceId;
  const item = await repository.lockItem(db, workspaceId, itemId);
  if (item === undefined) throw notFound('Item');
  await requireCollection(db, workspaceId, collectionId).catch(() => {
    throw badRequest('unknown_collection', 'collectionId is not a list of this workspace', {
      collectionId,
    });
  });
  if (item.collection_id === collectionId) {
    throw badRequest(
      'already_home',
      'This list is the item’s home list; attach it to another list',
    );
  }
  const before = await attachedIds(db, itemId);
  if (!before.includes(collectionId)) {
    await db
      .insertInto('item_collections')
      .values({ item_id: itemId, collection_id: collectionId, workspace_id: workspaceId })
      .execute();
    await recordEvent(db, itemScope(access), {
      type: 'item.attached',
      resource: { kind: 'item', id: itemId },
      changes: { collectionIds: { before, after: [...before, collectionId] } },
    });
  }
  return getItem(db, workspaceId, itemId);
}

/** Detaches a card from a secondary list; the home list never changes this way. */
export async function detachItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
  collectionId: string,
): Promise<void> {
  const item = await repository.lockItem(db, access.workspaceId, itemId);
  if (item === undefined) throw notFound('Item');
  if (item.collection_id === collectionId) {
    throw badRequest(
      'cannot_detach_home',
      'An item cannot leave its home list; move it to another list instead',
    );
  }
  const before = await attachedIds(db, itemId);
  if (!before.includes(collectionId)) throw notFound('Attachment');
  await db
    .deleteFrom('item_collections')
    .where('item_id', '=', itemId)
    .where('collection_id', '=', collectionId)
    .execute();
  await recordEvent(db, itemScope(access), {
    type: 'item.detached',
    resource: { kind: 'item', id: itemId },
    changes: { collectionIds: { before, after: before.filter((id) => id !== collectionId) } },
  });
}
