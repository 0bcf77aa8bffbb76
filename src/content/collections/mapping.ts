import type { CollectionRow, GroupRow } from './repository.js';
import type { Collection, CollectionGroup } from './schemas.js';

export function toCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: row.key_prefix,
    description: row.description,
    icon: row.icon,
    fieldIds: row.field_ids,
    groupId: row.group_id,
    position: row.position,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toGroup(row: GroupRow): CollectionGroup {
  return {
    id: row.id,
    name: row.name,
    position: row.position,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The fields of a list an event reports. */
export function collectionEventValues(collection: Collection) {
  return {
    name: collection.name,
    keyPrefix: collection.keyPrefix,
    description: collection.description,
    icon: collection.icon,
    fieldIds: collection.fieldIds,
    groupId: collection.groupId,
    position: collection.position,
  };
}
