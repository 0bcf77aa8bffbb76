import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { deleted } from '../../events/changes.js';
import { recordEvents } from '../../events/writer.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import type { Field } from '../fields/schemas.js';

/**
 * Changes to items caused by changes elsewhere (a field or option removed, a
 * list deleted). Each writes the items' events under the caller's batch id.
 * This file imports no other item code, so fields and collections can call it.
 */

function scope(access: WorkspaceAccess, batchId: string) {
  return {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId,
  };
}

/** Removes the property `key` from every item that has it. */
export async function removePropertyEverywhere(
  db: Database,
  access: WorkspaceAccess,
  key: string,
  batchId: string,
): Promise<void> {
  const { rows } = await sql<{ id: string; value: unknown }>`
    with old as (
      select id, properties -> ${key} as value from items
      where workspace_id = ${access.workspaceId} and properties ? ${key}
      for update
    )
    update items set properties = items.properties - ${key}, updated_at = now()
    from old where items.id = old.id
    returning items.id, old.value`.execute(db);
  await recordEvents(
    db,
    scope(access, batchId),
    rows.map((row) => ({
      type: 'item.updated',
      resource: { kind: 'item', id: row.id },
      changes: { [`properties.${key}`]: { before: row.value, after: null } },
    })),
  );
}

/** Removes these options from the items' values of a select or multi_select field. */
export async function removeOptionValues(
  db: Database,
  access: WorkspaceAccess,
  field: Field,
  optionIds: readonly string[],
  batchId: string,
): Promise<void> {
  const key = field.key;
  const removed = sql`${[...optionIds]}::text[]`;
  const next =
    field.type === 'select'
      ? sql`null::jsonb`
      : sql`(select coalesce(jsonb_agg(value), '[]'::jsonb) from jsonb_array_elements_text(old.value) as value where value <> all(${removed}))`;
  const touches =
    field.type === 'select'
      ? sql`properties ->> ${key} = any(${removed})`
      : sql`jsonb_typeof(properties -> ${key}) = 'array' and properties -> ${key} ?| ${removed}`;
  const { rows } = await sql<{ id: string; before: unknown; after: unknown }>`
    with old as (
      select id, properties -> ${key} as value from items
      where workspace_id = ${access.workspaceId} and ${touches}
      for update
    ),
    computed as (
      select old.id, old.value as before, ${next} as after from old
    )
    update items
    set properties = case
          when computed.after is null or computed.after = '[]'::jsonb then items.properties - ${key}
          else jsonb_set(items.properties, array[${key}], computed.after)
        end,
        updated_at = now()
    from computed where items.id = computed.id
    returning items.id, computed.before, case when computed.after = '[]'::jsonb then null else computed.after end as after`.execute(
    db,
  );
  await recordEvents(
    db,
    scope(access, batchId),
    rows.map((row) => ({
      type: 'item.updated',
      resource: { kind: 'item', id: row.id },
      changes: { [`properties.${key}`]: { before: row.before, after: row.after ?? null } },
    })),
  );
}

/**
 * Deletes the items whose home is the list, with their subtrees, and detaches
 * items that were only attached to it (they stay in their home lists).
 */
export async function deleteItemsOfCollection(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  batchId: string,
): Promise<void> {
  const { rows: doomed } = await sql<{
    id: string;
    title: string;
    number: number;
    collection_id: string;
    parent_id: string | null;
  }>`
    with recursive tree (id) as (
      select id from items where collection_id = ${collectionId}
      union
      select items.id from items join tree on items.parent_id = tree.id
    )
    select items.id, items.title, items.number, items.collection_id, items.parent_id
    from items join tree using (id)`.execute(db);
  const doomedIds = new Set(doomed.map((row) => row.id));
  const attachments = await db
    .selectFrom('item_collections')
    .select(['item_id'])
    .where('collection_id', '=', collectionId)
    .execute();
  const survivors = attachments.filter((attachment) => !doomedIds.has(attachment.item_id));
  const remaining = new Map<string, string[]>();
  for (const survivor of survivors) {
    const rows = await db
      .selectFrom('item_collections')
      .select('collection_id')
      .where('item_id', '=', survivor.item_id)
      .orderBy('created_at')
      .orderBy('collection_id')
      .execute();
    remaining.set(
      survivor.item_id,
      rows.map((row) => row.collection_id),
    );
  }
  await db.deleteFrom('item_collections').where('collection_id', '=', collectionId).execute();
  if (doomed.length > 0)
    await db
      .deleteFrom('items')
      .where('id', 'in', [...doomedIds])
      .execute();
  await recordEvents(db, scope(access, batchId), [
    ...survivors.map((survivor) => {
      const before = remaining.get(survivor.item_id) ?? [];
      return {
        type: 'item.detached' as const,
        resource: { kind: 'item' as const, id: survivor.item_id },
        changes: { collectionIds: { before, after: before.filter((id) => id !== collectionId) } },
      };
    }),
    ...doomed.map((row) => ({
      type: 'item.deleted' as const,
      resource: { kind: 'item' as const, id: row.id },
      changes: deleted({
        title: row.title,
        number: Number(row.number),
        collectionId: row.collection_id,
        parentId: row.parent_id,
      }),
    })),
  ]);
}
