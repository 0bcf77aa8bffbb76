import type { Selectable } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { CollectionGroupsTable, CollectionsTable } from './tables.js';

export const collectionColumns = [
  'id',
  'name',
  'key_prefix',
  'description',
  'icon',
  'field_ids',
  'group_id',
  'position',
  'created_at',
  'updated_at',
] as const;

/** A collection as read: every column but the workspace. */
export type CollectionRow = Pick<Selectable<CollectionsTable>, (typeof collectionColumns)[number]>;

export function selectCollections(db: Database, workspaceId: string) {
  return db
    .selectFrom('collections')
    .select(collectionColumns)
    .where('workspace_id', '=', workspaceId);
}

export async function findCollection(
  db: Database,
  workspaceId: string,
  collectionId: string,
  lock = false,
): Promise<CollectionRow | undefined> {
  let query = selectCollections(db, workspaceId).where('id', '=', collectionId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export async function listCollectionRows(
  db: Database,
  workspaceId: string,
  lock = false,
): Promise<CollectionRow[]> {
  let query = selectCollections(db, workspaceId)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id');
  if (lock) query = query.forUpdate();
  return query.execute();
}

const groupColumns = ['id', 'name', 'position', 'created_at', 'updated_at'] as const;

/** A collection group as read: every column but the workspace. */
export type GroupRow = Pick<Selectable<CollectionGroupsTable>, (typeof groupColumns)[number]>;

export async function listGroupRows(
  db: Database,
  workspaceId: string,
  lock = false,
): Promise<GroupRow[]> {
  let query = db
    .selectFrom('collection_groups')
    .select(groupColumns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('id');
  if (lock) query = query.forUpdate();
  return query.execute();
}

export async function findGroup(db: Database, workspaceId: string, groupId: string, lock = false) {
  let query = db
    .selectFrom('collection_groups')
    .select(groupColumns)
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', groupId);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

export { groupColumns };
