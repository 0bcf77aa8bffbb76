import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { created, deleted } from '../../events/changes.js';
import { recordEvent, recordEvents } from '../../events/writer.js';
import { badRequest, notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { toGroup } from './mapping.js';
import * as repository from './repository.js';
import type { CollectionGroup } from './schemas.js';

function scopeOf(access: WorkspaceAccess, batchId?: string) {
  return {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId: batchId ?? null,
  };
}

export async function listGroups(db: Database, workspaceId: string): Promise<CollectionGroup[]> {
  return (await repository.listGroupRows(db, workspaceId)).map(toGroup);
}

export async function createGroup(
  db: Database,
  access: WorkspaceAccess,
  name: string,
): Promise<CollectionGroup> {
  const last = await db
    .selectFrom('collection_groups')
    .select(sql<number>`coalesce(max(position), -1)`.as('position'))
    .where('workspace_id', '=', access.workspaceId)
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('collection_groups')
    .values({
      id: newId(),
      workspace_id: access.workspaceId,
      name: name.trim(),
      position: Number(last.position) + 1,
    })
    .returning(repository.groupColumns)
    .executeTakeFirstOrThrow();
  const group = toGroup(row);
  await recordEvent(db, scopeOf(access), {
    type: 'collection_group.created',
    resource: { kind: 'collection_group', id: group.id },
    changes: created({ name: group.name, position: group.position }),
  });
  return group;
}

export async function renameGroup(
  db: Database,
  access: WorkspaceAccess,
  groupId: string,
  name: string,
): Promise<CollectionGroup> {
  const before = await repository.findGroup(db, access.workspaceId, groupId, true);
  if (before === undefined) throw notFound('Collection group');
  if (before.name === name.trim()) return toGroup(before);
  const row = await db
    .updateTable('collection_groups')
    .set({ name: name.trim(), updated_at: sql<Date>`now()` })
    .where('id', '=', groupId)
    .returning(repository.groupColumns)
    .executeTakeFirstOrThrow();
  await recordEvent(db, scopeOf(access), {
    type: 'collection_group.updated',
    resource: { kind: 'collection_group', id: groupId },
    changes: { name: { before: before.name, after: row.name } },
  });
  return toGroup(row);
}

/** Deletes a group; its lists stay, ungrouped (each logged as `collection.updated`). */
export async function deleteGroup(
  db: Database,
  access: WorkspaceAccess,
  groupId: string,
): Promise<void> {
  const group = await repository.findGroup(db, access.workspaceId, groupId, true);
  if (group === undefined) throw notFound('Collection group');
  const batchId = newId();
  const lists = await db
    .updateTable('collections')
    .set({ group_id: null, updated_at: sql<Date>`now()` })
    .where('workspace_id', '=', access.workspaceId)
    .where('group_id', '=', groupId)
    .returning('id')
    .execute();
  await db.deleteFrom('collection_groups').where('id', '=', groupId).execute();
  await recordEvents(db, scopeOf(access, batchId), [
    ...lists.map((list) => ({
      type: 'collection.updated' as const,
      resource: { kind: 'collection' as const, id: list.id },
      changes: { groupId: { before: groupId, after: null } },
    })),
    {
      type: 'collection_group.deleted',
      resource: { kind: 'collection_group', id: groupId },
      changes: deleted({ name: group.name, position: group.position }),
    },
  ]);
}

export async function reorderGroups(
  db: Database,
  access: WorkspaceAccess,
  groupIds: readonly string[],
): Promise<CollectionGroup[]> {
  const rows = await repository.listGroupRows(db, access.workspaceId, true);
  const known = new Set(rows.map((row) => row.id));
  const cited = new Set(groupIds);
  if (
    cited.size !== groupIds.length ||
    cited.size !== known.size ||
    groupIds.some((id) => !known.has(id))
  ) {
    throw badRequest(
      'invalid_order',
      'groupIds must list every group of the workspace exactly once',
    );
  }
  const moved = rows.filter((row) => row.position !== groupIds.indexOf(row.id));
  for (const row of moved) {
    await db
      .updateTable('collection_groups')
      .set({ position: groupIds.indexOf(row.id), updated_at: sql<Date>`now()` })
      .where('id', '=', row.id)
      .execute();
  }
  await recordEvents(
    db,
    scopeOf(access),
    moved.map((row) => ({
      type: 'collection_group.updated',
      resource: { kind: 'collection_group', id: row.id },
      changes: { position: { before: row.position, after: groupIds.indexOf(row.id) } },
    })),
  );
  return listGroups(db, access.workspaceId);
}
