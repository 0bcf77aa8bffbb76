import { sql } from 'kysely';
import { jsonb } from '../../db/json.js';
import type { Database } from '../../db/schema.js';
import { created, diff, diffProperties, sameJson } from '../../events/changes.js';
import type { EventInput } from '../../events/types.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { loadRegistry } from '../fields/registry.js';
import { type Body, resolveBody } from '../items/body.js';
import { keysBetween } from '../items/order.js';
import { mergeProperties, validateProperties } from '../items/properties.js';
import { findItemDetails, toItemDetail } from '../items/repository.js';
import { createdValues } from '../items/service.js';
import { listStatuses } from '../statuses/service.js';
import { takeItemNumbers } from '../workspaces/service.js';
import { checkRow, checkUnique, pairKey, refuseRow } from './rows.js';
import type { ImportItem, Outcome, Reference } from './schemas.js';

interface Pair {
  source: string;
  id: string;
}

function pairOf(reference: Reference, defaultSource: string): Pair | null {
  return 'id' in reference
    ? null
    : { source: reference.externalSource ?? defaultSource, id: reference.externalId };
}

/** Looks pairs up in one table of the workspace: pair key to id. */
async function lookupPairs(
  db: Database,
  table: 'items' | 'collections' | 'files',
  workspaceId: string,
  pairs: readonly Pair[],
): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['id', 'external_source', 'external_id'])
    .where('workspace_id', '=', workspaceId)
    .where('external_source', 'in', [...new Set(pairs.map((pair) => pair.source))])
    .where('external_id', 'in', [...new Set(pairs.map((pair) => pair.id))])
    .execute();
  return new Map(
    rows.map((row) => [pairKey(row.external_source ?? '', row.external_id ?? ''), row.id]),
  );
}

/** The id a reference names: a known `{id}`, or a pair found in one of the maps, in order. */
function resolveReference(
  reference: Reference,
  defaultSource: string,
  knownIds: ReadonlySet<string>,
  byPair: ReadonlyArray<ReadonlyMap<string, string>>,
): string | undefined {
  if ('id' in reference) return knownIds.has(reference.id) ? reference.id : undefined;
  const key = pairKey(reference.externalSource ?? defaultSource, reference.externalId);
  for (const map of byPair) {
    const id = map.get(key);
    if (id !== undefined) return id;
  }
  return undefined;
}

async function existingIds(
  db: Database,
  table: 'items' | 'collections',
  workspaceId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Set(rows.map((row) => row.id));
}

export interface ItemImport {
  outcomes: Outcome[];
  events: EventInput[];
}

interface Planned {
  index: number;
  row: ImportItem;
  id: string;
  collectionId: string;
  parentId: string | null | undefined;
  statusId: string | undefined;
  properties: Record<string, unknown> | undefined;
  content: Body | undefined;
}

/**
 * Creates or updates cards by their external pair, in set-based statements
 * where it counts: one lookup per kind of reference, one INSERT for every new
 * card (parents in the same batch included: the foreign key is checked at the
 * end of the statement), numbers and places taken once per list. Fields left
 * out keep their value on an update. A parent chain that would loop refuses
 * the row that closes it.
 */
export async function importItems(
  db: Database,
  access: WorkspaceAccess,
  rows: readonly ImportItem[],
  batch: { collections: Map<string, string>; files: Map<string, string> },
): Promise<ItemImport> {
  const result: ItemImport = { outcomes: [], events: [] };
  if (rows.length === 0) return result;
  const workspaceId = access.workspaceId;
  checkUnique('items', rows);
  const ownPairs = rows.map((row) => ({ source: row.externalSource, id: row.externalId }));
  const current = await db
    .selectFrom('items')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('external_source', 'in', [...new Set(ownPairs.map((pair) => pair.source))])
    .where('external_id', 'in', [...new Set(ownPairs.map((pair) => pair.id))])
    .orderBy('id')
    .forUpdate()
    .execute();
  const existing = new Map(
    current.map((row) => [pairKey(row.external_source ?? '', row.external_id ?? ''), row]),
  );
  const itemIds = new Map(
    rows.map((row) => {
      const key = pairKey(row.externalSource, row.externalId);
      return [key, existing.get(key)?.id ?? newId()];
    }),
  );

  // Every reference, resolved in a few queries.
  const collectionPairs = rows.flatMap((row) => {
    const pair = pairOf(row.collection, row.externalSource);
    return pair === null || batch.collections.has(pairKey(pair.source, pair.id)) ? [] : [pair];
  });
  const parentPairs = rows.flatMap((row) => {
    const pair = row.parent ? pairOf(row.parent, row.externalSource) : null;
    return pair === null || itemIds.has(pairKey(pair.source, pair.id)) ? [] : [pair];
  });
  const registry = await loadRegistry(db, workspaceId);
  const fileKeys = [...registry.byKey.values()]
    .filter((field) => field.type === 'file')
    .map((field) => field.key);
  const filePairs = rows.flatMap((row) =>
    fileKeys.flatMap((key) => {
      const value = row.properties?.[key];
      if (value === null || typeof value !== 'object' || !('externalId' in value)) return [];
      const reference = value as { externalSource?: string; externalId: string };
      return [{ source: reference.externalSource ?? row.externalSource, id: reference.externalId }];
    }),
  );
  const [collectionsByPair, parentsByPair, filesByPair, collectionIdsKnown, parentIdsKnown] =
    await Promise.all([
      lookupPairs(db, 'collections', workspaceId, collectionPairs),
      lookupPairs(db, 'items', workspaceId, parentPairs),
      lookupPairs(db, 'files', workspaceId, filePairs),
      existingIds(
        db,
        'collections',
        workspaceId,
        rows.flatMap((row) => ('id' in row.collection ? [row.collection.id] : [])),
      ),
      existingIds(
        db,
        'items',
        workspaceId,
        rows.flatMap((row) => (row.parent && 'id' in row.parent ? [row.parent.id] : [])),
      ),
    ]);
  const statuses = await listStatuses(db, workspaceId);
  const statusIds = new Set(statuses.map((status) => status.id));

  const planned: Planned[] = [];
  for (const [index, row] of rows.entries()) {
    const id = itemIds.get(pairKey(row.externalSource, row.externalId)) ?? newId();
    planned.push(
      await checkRow('items', index, async () => {
        const collectionId = resolveReference(
          row.collection,
          row.externalSource,
          collectionIdsKnown,
          [batch.collections, collectionsByPair],
        );
        if (collectionId === undefined) {
          throw refuseRow('items', index, 'unknown_collection', 'The collection is not known');
        }
        let parentId: string | null | undefined = row.parent === null ? null : undefined;
        if (row.parent) {
          parentId = resolveReference(row.parent, row.externalSource, parentIdsKnown, [
            itemIds,
            parentsByPair,
          ]);
          if (parentId === undefined || parentId === id) {
            throw refuseRow('items', index, 'invalid_parent', 'The parent is not a known item');
          }
        }
        if (row.statusId !== undefined && !statusIds.has(row.statusId)) {
          throw refuseRow('items', index, 'invalid_status', 'statusId is not a status here');
        }
        let input = row.properties;
        if (input !== undefined) {
          input = { ...input };
          for (const key of fileKeys) {
            const value = input[key];
            if (value === null || typeof value !== 'object' || !('externalId' in value)) continue;
            const reference = value as { externalSource?: string; externalId: string };
            const pair = pairKey(
              reference.externalSource ?? row.externalSource,
              reference.externalId,
            );
            const fileId = batch.files.get(pair) ?? filesByPair.get(pair);
            if (fileId === undefined) {
              throw refuseRow('items', index, 'unknown_file', `"${key}" names an unknown file`);
            }
            input[key] = fileId;
          }
        }
        const isNew = !existing.has(pairKey(row.externalSource, row.externalId));
        const properties =
          input === undefined
            ? undefined
            : await validateProperties(db, workspaceId, registry, input, !isNew);
        const content = await resolveBody(db, workspaceId, row);
        return {
          index,
          row,
          id,
          collectionId,
          parentId,
          statusId: row.statusId,
          properties,
          content,
        };
      }),
    );
  }

  // Places at the end of each list, taken once per list, for new and re-homed cards.
  const needsPlace = planned.filter((plan) => {
    const before = existing.get(pairKey(plan.row.externalSource, plan.row.externalId));
    return before === undefined || before.collection_id !== plan.collectionId;
  });
  const listIds = [...new Set(needsPlace.map((plan) => plan.collectionId))];
  const sortKeys = new Map<string, string>();
  if (listIds.length > 0) {
    await db
      .selectFrom('collections')
      .select('id')
      .where('id', 'in', listIds)
      .orderBy('id')
      .forNoKeyUpdate()
      .execute();
    const lasts = await db
      .selectFrom('items')
      .select(['collection_id', sql<string>`max(sort_key)`.as('last')])
      .where('collection_id', 'in', listIds)
      .groupBy('collection_id')
      .execute();
    const lastOf = new Map(lasts.map((row) => [row.collection_id, row.last]));
    for (const listId of listIds) {
      const plans = needsPlace.filter((plan) => plan.collectionId === listId);
      const keys = keysBetween(lastOf.get(listId) ?? null, null, plans.length);
      for (const [position, plan] of plans.entries()) sortKeys.set(plan.id, keys[position] ?? '');
    }
  }

  const fresh = planned.filter(
    (plan) => !existing.has(pairKey(plan.row.externalSource, plan.row.externalId)),
  );
  const defaultStatus = statuses[0]?.id;
  if (fresh.length > 0) {
    const first = await takeItemNumbers(db, workspaceId, fresh.length);
    await db
      .insertInto('items')
      .values(
        fresh.map((plan, offset) => ({
          id: plan.id,
          workspace_id: workspaceId,
          collection_id: plan.collectionId,
          number: first + offset,
          title: plan.row.title.trim(),
          status_id: plan.statusId ?? defaultStatus ?? '',
          parent_id: plan.parentId ?? null,
          properties: jsonb(plan.properties ?? {}),
          blocks: jsonb(plan.content?.blocks ?? { blocks: [] }),
          body: plan.content?.body ?? '',
          icon: plan.row.icon ?? null,
          sort_key: sortKeys.get(plan.id) ?? '',
          archived_at: plan.row.archived ? new Date() : null,
          created_by: access.userId,
          external_source: plan.row.externalSource,
          external_id: plan.row.externalId,
        })),
      )
      .execute();
  }

  const outcomes = new Map<number, Outcome['outcome']>();
  for (const plan of fresh) outcomes.set(plan.index, 'created');
  for (const plan of planned) {
    const before = existing.get(pairKey(plan.row.externalSource, plan.row.externalId));
    if (before === undefined) continue;
    const properties =
      plan.properties === undefined
        ? before.properties
        : mergeProperties(before.properties, plan.properties);
    const archivedAt =
      plan.row.archived === undefined
        ? before.archived_at
        : plan.row.archived
          ? (before.archived_at ?? new Date())
          : null;
    const previous = {
      title: before.title,
      statusId: before.status_id,
      icon: before.icon,
      body: before.body,
      archivedAt: before.archived_at?.toISOString() ?? null,
      collectionId: before.collection_id,
      parentId: before.parent_id,
      sortKey: before.sort_key,
    };
    const next = {
      title: plan.row.title.trim(),
      statusId: plan.statusId ?? before.status_id,
      icon: plan.row.icon === undefined ? before.icon : plan.row.icon,
      body: plan.content?.body ?? before.body,
      archivedAt: archivedAt?.toISOString() ?? null,
      collectionId: plan.collectionId,
      parentId: plan.parentId === undefined ? before.parent_id : plan.parentId,
      sortKey: sortKeys.get(plan.id) ?? before.sort_key,
    };
    const updated = {
      ...diff(previous, next, ['title', 'statusId', 'icon', 'body', 'archivedAt']),
      ...diffProperties(before.properties, properties),
    };
    const blocksChanged =
      plan.content !== undefined && !sameJson(plan.content.blocks, before.blocks);
    if (blocksChanged && updated.body === undefined) {
      updated.blocks = { before: before.blocks, after: plan.content?.blocks };
    }
    const moved = diff(previous, next, ['collectionId', 'parentId', 'sortKey']);
    if (Object.keys(updated).length === 0 && Object.keys(moved).length === 0) {
      outcomes.set(plan.index, 'unchanged');
      continue;
    }
    await db
      .updateTable('items')
      .set({
        title: next.title,
        status_id: next.statusId,
        icon: next.icon,
        archived_at: archivedAt,
        collection_id: next.collectionId,
        parent_id: next.parentId,
        sort_key: next.sortKey,
        properties: jsonb(properties),
        ...(plan.content === undefined
          ? {}
          : { blocks: jsonb(plan.content.blocks), body: plan.content.body }),
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', plan.id)
      .execute();
    if (moved.collectionId !== undefined) {
      await db
        .deleteFrom('item_collections')
        .where('item_id', '=', plan.id)
        .where('collection_id', '=', next.collectionId)
        .execute();
    }
    if (Object.keys(updated).length > 0) {
      result.events.push({
        type: 'item.updated',
        resource: { kind: 'item', id: plan.id },
        changes: updated,
      });
    }
    if (Object.keys(moved).length > 0) {
      result.events.push({
        type: 'item.moved',
        resource: { kind: 'item', id: plan.id },
        changes: moved,
      });
    }
    outcomes.set(plan.index, 'updated');
  }

  await refuseLoops(db, planned);

  const details = await findItemDetails(
    db,
    workspaceId,
    fresh.map((plan) => plan.id),
  );
  const byId = new Map(details.map((row) => [row.id, toItemDetail(row)]));
  for (const plan of fresh) {
    const item = byId.get(plan.id);
    if (item === undefined) continue;
    result.events.push({
      type: 'item.created',
      resource: { kind: 'item', id: item.id },
      changes: { ...created(createdValues(item)), ...diffProperties({}, item.properties) },
    });
  }
  result.outcomes = planned.map((plan) => ({
    externalSource: plan.row.externalSource,
    externalId: plan.row.externalId,
    id: plan.id,
    outcome: outcomes.get(plan.index) ?? 'unchanged',
  }));
  return result;
}

/** Refuses the first row whose parent chain now loops back to itself. */
async function refuseLoops(db: Database, planned: readonly Planned[]): Promise<void> {
  const ids = planned.filter((plan) => plan.parentId).map((plan) => plan.id);
  if (ids.length === 0) return;
  const { rows } = await sql<{ start_id: string }>`
    with recursive up (start_id, id, parent_id) as (
      select id, id, parent_id from items where id = any(${ids}::uuid[])
      union all
      select up.start_id, items.id, items.parent_id from items join up on items.id = up.parent_id
    ) cycle id set looped using path
    select start_id from up where looped limit 1`.execute(db);
  const looped = rows[0]?.start_id;
  if (looped === undefined) return;
  const plan = planned.find((candidate) => candidate.id === looped);
  throw refuseRow('items', plan?.index ?? 0, 'invalid_parent', 'The parent chain would loop');
}
