import type { Database } from '../../db/schema.js';
import { recordEvent } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { requireCollection } from '../collections/service.js';
import { placeInList } from './placement.js';
import * as repository from './repository.js';
import type { ItemDetail, MoveItem } from './schemas.js';
import { getItem, itemScope } from './service.js';
import { lockCards, updateCards } from './write/update.js';

/** The secondary lists of a card, in the order it joined them. */
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

async function removeAttachment(db: Database, itemId: string, collectionId: string): Promise<void> {
  await db
    .deleteFrom('item_collections')
    .where('item_id', '=', itemId)
    .where('collection_id', '=', collectionId)
    .execute();
}

/** A list named in a body: 400 (not 404) when it is not a list of the workspace. */
async function requireTargetList(
  db: Database,
  workspaceId: string,
  collectionId: string,
): Promise<void> {
  await requireCollection(db, workspaceId, collectionId).catch(() => {
    throw badRequest('unknown_collection', 'collectionId is not a list of this workspace', {
      collectionId,
    });
  });
}

async function requireParent(db: Database, workspaceId: string, itemId: string, parentId: string) {
  if (!(await repository.itemExists(db, workspaceId, parentId))) {
    throw badRequest('invalid_parent', 'parentId is not an item of this workspace', { parentId });
  }
  if (await repository.isSelfOrDescendant(db, itemId, parentId)) {
    throw badRequest(
      'invalid_parent',
      'An item cannot be placed under itself or one of its sub-items',
      {
        parentId,
      },
    );
  }
}

/**
 * Moves a card: a new home list (the number stays; the key takes the new
 * prefix), a new parent, a new place in manual order. One `item.moved` event;
 * a card moved into a list it was attached to leaves that secondary list,
 * which the event's `collectionIds` change records.
 */
export async function moveItem(
  db: Database,
  access: WorkspaceAccess,
  itemId: string,
  input: MoveItem,
): Promise<ItemDetail> {
  const workspaceId = access.workspaceId;
  const [before] = await lockCards(db, workspaceId, [itemId], false);
  if (before === undefined) throw notFound('Item');
  const collectionId = input.collectionId ?? before.collection_id;
  if (collectionId !== before.collection_id) await requireTargetList(db, workspaceId, collectionId);
  if (input.parentId) await requireParent(db, workspaceId, itemId, input.parentId);
  const sortKey =
    input.afterItemId === undefined && collectionId === before.collection_id
      ? undefined
      : await placeInList(db, collectionId, input.afterItemId, itemId);
  await updateCards(
    db,
    itemScope(access),
    [{ id: itemId, collectionId, parentId: input.parentId, sortKey }],
    [before],
  );
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
  await requireTargetList(db, workspaceId, collectionId);
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
  await removeAttachment(db, itemId, collectionId);
  await recordEvent(db, itemScope(access), {
    type: 'item.detached',
    resource: { kind: 'item', id: itemId },
    changes: { collectionIds: { before, after: before.filter((id) => id !== collectionId) } },
  });
}
