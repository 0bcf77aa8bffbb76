import { sql } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { Database } from '../../db/schema.js';
import { created, deleted, diff } from '../../events/changes.js';
import { recordEvent, recordEvents } from '../../events/writer.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { existingFieldIds, listFields } from '../fields/registry.js';
import { deleteItemsOfCollection } from '../items/cleanup.js';
import { listStatuses } from '../statuses/service.js';
import { deleteViewsOfCollection, listViews } from '../views/service.js';
import { collectionEventValues, toCollection } from './mapping.js';
import * as repository from './repository.js';
import type {
  Collection,
  CollectionDetail,
  CreateCollection,
  ReorderCollections,
  UpdateCollection,
} from './schemas.js';

function scopeOf(access: WorkspaceAccess, batchId?: string) {
  return {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId: batchId ?? null,
  };
}

function prefixTaken(): Error {
  return conflict('key_prefix_taken', 'Another list of this workspace uses this key prefix');
}

async function checkFieldIds(
  db: Database,
  workspaceId: string,
  fieldIds: readonly string[],
): Promise<void> {
  const known = await existingFieldIds(db, workspaceId, fieldIds);
  const unknown = fieldIds.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(
      'unknown_field',
      'fieldIds names fields that are not in the workspace registry',
      { fieldIds: unknown },
    );
  }
}

async function checkGroup(
  db: Database,
  workspaceId: string,
  groupId: string | null | undefined,
): Promise<void> {
  if (groupId === null || groupId === undefined) return;
  if ((await repository.findGroup(db, workspaceId, groupId)) === undefined) {
    throw badRequest('unknown_group', 'The group is not a collection group of this workspace', {
      groupId,
    });
  }
}

export async function listCollections(db: Database, workspaceId: string): Promise<Collection[]> {
  return (await repository.listCollectionRows(db, workspaceId)).map(toCollection);
}

/** The list if it belongs to the workspace; 404 otherwise. */
export async function requireCollection(
  db: Database,
  workspaceId: string,
  collectionId: string,
): Promise<Collection> {
  const row = await repository.findCollection(db, workspaceId, collectionId);
  if (row === undefined) throw notFound('Collection');
  return toCollection(row);
}

export async function getCollectionDetail(
  db: Database,
  workspaceId: string,
  collectionId: string,
): Promise<CollectionDetail> {
  const collection = await requireCollection(db, workspaceId, collectionId);
  const [fields, statuses, views] = await Promise.all([
    listFields(db, workspaceId),
    listStatuses(db, workspaceId),
    listViews(db, workspaceId, collectionId),
  ]);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const shown = collection.fieldIds.flatMap((id) => {
    const field = byId.get(id);
    return field === undefined ? [] : [field];
  });
  return { ...collection, fields: shown, statuses, views };
}

export async function createCollection(
  db: Database,
  access: WorkspaceAccess,
  input: CreateCollection,
): Promise<Collection> {
  const fieldIds = input.fieldIds ?? [];
  await checkFieldIds(db, access.workspaceId, fieldIds);
  await checkGroup(db, access.workspaceId, input.groupId);
  const last = await db
    .selectFrom('collections')
    .select(sql<number>`coalesce(max(position), -1)`.as('position'))
    .where('workspace_id', '=', access.workspaceId)
    .executeTakeFirstOrThrow();
  let row: repository.CollectionRow;
  try {
    row = await db
      .insertInto('collections')
      .values({
        id: newId(),
        workspace_id: access.workspaceId,
        name: input.name.trim(),
        key_prefix: input.keyPrefix,
        description: input.description ?? null,
        icon: input.icon ?? null,
        field_ids: fieldIds,
        group_id: input.groupId ?? null,
        position: Number(last.position) + 1,
      })
      .returning(repository.collectionColumns)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error, 'collections_key_prefix_key')) throw prefixTaken();
    throw error;
  }
  const collection = toCollection(row);
  await recordEvent(db, scopeOf(access), {
    type: 'collection.created',
    resource: { kind: 'collection', id: collection.id },
    changes: created(collectionEventValues(collection)),
  });
  return collection;
}

export async function updateCollection(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  input: UpdateCollection,
): Promise<Collection> {
  const row = await repository.findCollection(db, access.workspaceId, collectionId, true);
  if (row === undefined) throw notFound('Collection');
  if (input.fieldIds !== undefined) await checkFieldIds(db, access.workspaceId, input.fieldIds);
  const before = toCollection(row);
  const after: Collection = {
    ...before,
    name: input.name?.trim() ?? before.name,
    keyPrefix: input.keyPrefix ?? before.keyPrefix,
    fieldIds: input.fieldIds ?? before.fieldIds,
    description: input.description === undefined ? before.description : input.description,
    icon: input.icon === undefined ? before.icon : input.icon,
  };
  const changes = diff(before, after, ['name', 'keyPrefix', 'fieldIds', 'description', 'icon']);
  if (Object.keys(changes).length === 0) return before;
  let updated: repository.CollectionRow;
  try {
    updated = await db
      .updateTable('collections')
      .set({
        name: after.name,
        key_prefix: after.keyPrefix,
        field_ids: after.fieldIds,
        description: after.description,
        icon: after.icon,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', collectionId)
      .returning(repository.collectionColumns)
      .executeTakeFirstOrThrow();
  } catch (error) {
    if (isUniqueViolation(error, 'collections_key_prefix_key')) throw prefixTaken();
    throw error;
  }
  await recordEvent(db, scopeOf(access), {
    type: 'collection.updated',
    resource: { kind: 'collection', id: collectionId },
    changes,
  });
  return toCollection(updated);
}

/**
 * Deletes a list with its views and the items whose home it is (with their
 * sub-items); items only attached to it stay in their home lists. Everything
 * is logged under one batch id.
 */
export async function deleteCollection(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
): Promise<void> {
  const row = await repository.findCollection(db, access.workspaceId, collectionId, true);
  if (row === undefined) throw notFound('Collection');
  const batchId = newId();
  await deleteViewsOfCollection(db, access, collectionId, batchId);
  await deleteItemsOfCollection(db, access, collectionId, batchId);
  await db.deleteFrom('collections').where('id', '=', collectionId).execute();
  await recordEvent(db, scopeOf(access, batchId), {
    type: 'collection.deleted',
    resource: { kind: 'collection', id: collectionId },
    changes: deleted(collectionEventValues(toCollection(row))),
  });
}

/**
 * Gives the cited lists positions 0 to n-1 in the order cited and the groups
 * given, in one transaction; one event per list whose group or position
 * actually changed. A cited list or group missing from the workspace is 409.
 */
export async function reorderCollections(
  db: Database,
  access: WorkspaceAccess,
  input: ReorderCollections,
): Promise<Collection[]> {
  const ids = input.collections.map((entry) => entry.id);
  if (new Set(ids).size !== ids.length)
    throw badRequest('duplicate_collection', 'A list is cited twice');
  const rows = await repository.listCollectionRows(db, access.workspaceId, true);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    throw conflict('collection_not_found', 'Cited lists do not exist in this workspace', {
      collectionIds: missing,
    });
  }
  const groups = new Set(
    (await repository.listGroupRows(db, access.workspaceId, true)).map((group) => group.id),
  );
  const missingGroups = input.collections.flatMap((entry) =>
    entry.groupId !== null && !groups.has(entry.groupId) ? [entry.groupId] : [],
  );
  if (missingGroups.length > 0) {
    throw conflict('group_not_found', 'Cited groups do not exist in this workspace', {
      groupIds: [...new Set(missingGroups)],
    });
  }
  const moves = input.collections.flatMap((entry, position) => {
    const row = byId.get(entry.id);
    if (row === undefined) return [];
    const changes = diff(
      { groupId: row.group_id, position: row.position },
      { groupId: entry.groupId, position },
      ['groupId', 'position'],
    );
    return Object.keys(changes).length === 0
      ? []
      : [{ id: entry.id, groupId: entry.groupId, position, changes }];
  });
  for (const move of moves) {
    await db
      .updateTable('collections')
      .set({ group_id: move.groupId, position: move.position, updated_at: sql<Date>`now()` })
      .where('id', '=', move.id)
      .execute();
  }
  await recordEvents(
    db,
    scopeOf(access),
    moves.map((move) => ({
      type: 'collection.updated',
      resource: { kind: 'collection', id: move.id },
      changes: move.changes,
    })),
  );
  return listCollections(db, access.workspaceId);
}

/** Removes a deleted field from every list that displays it, logging each list. */
export async function removeFieldFromCollections(
  db: Database,
  access: WorkspaceAccess,
  fieldId: string,
  batchId: string,
): Promise<void> {
  const rows = await repository
    .selectCollections(db, access.workspaceId)
    .where(sql<boolean>`${fieldId}::uuid = any(field_ids)`)
    .forUpdate()
    .execute();
  for (const row of rows) {
    const fieldIds = row.field_ids.filter((id) => id !== fieldId);
    await db
      .updateTable('collections')
      .set({ field_ids: fieldIds, updated_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
    await recordEvent(db, scopeOf(access, batchId), {
      type: 'collection.updated',
      resource: { kind: 'collection', id: row.id },
      changes: { fieldIds: { before: row.field_ids, after: fieldIds } },
    });
  }
}
