import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventScope } from '../../events/writer.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { loadRegistry } from '../fields/registry.js';
import { type Body, resolveBody } from '../items/body.js';
import { spreadKeysBetween } from '../items/order.js';
import { validateProperties } from '../items/properties.js';
import { insertCards } from '../items/write/insert.js';
import type { StoredCard } from '../items/write/state.js';
import { updateCards } from '../items/write/update.js';
import { listStatuses } from '../statuses/service.js';
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
  scope: EventScope,
  rows: readonly ImportItem[],
  batch: { collections: Map<string, string>; files: Map<string, string> },
): Promise<ItemImport> {
  if (rows.length === 0) return { outcomes: [] };
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
  const existing = new Map<string, StoredCard>(
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
    const lasts = await db
      .selectFrom('items')
      .select(['collection_id', sql<string>`max(sort_key)`.as('last')])
      .where('collection_id', 'in', listIds)
      .groupBy('collection_id')
      .execute();
    const lastOf = new Map(lasts.map((row) => [row.collection_id, row.last]));
    for (const listId of listIds) {
      const plans = needsPlace.filter((plan) => plan.collectionId === listId);
      const keys = spreadKeysBetween(lastOf.get(listId) ?? null, null, plans.length);
      for (const [position, plan] of plans.entries()) sortKeys.set(plan.id, keys[position] ?? '');
    }
  }

  const isNew = (plan: Planned) =>
    !existing.has(pairKey(plan.row.externalSource, plan.row.externalId));
  const fresh = planned.filter(isNew);
  const defaultStatus = statuses[0]?.id ?? '';
  await insertCards(
    db,
    scope,
    fresh.map((plan) => ({
      id: plan.id,
      collectionId: plan.collectionId,
      title: plan.row.title.trim(),
      statusId: plan.statusId ?? defaultStatus,
      parentId: plan.parentId ?? null,
      properties: plan.properties ?? {},
      content: plan.content ?? { blocks: { blocks: [] }, body: '' },
      icon: plan.row.icon ?? null,
      sortKey: sortKeys.get(plan.id) ?? '',
      archivedAt: plan.row.archived ? new Date() : null,
      createdBy: access.userId,
      external: { source: plan.row.externalSource, id: plan.row.externalId },
    })),
  );
  const known = planned.filter((plan) => !isNew(plan));
  const changed = await updateCards(
    db,
    scope,
    known.map((plan) => ({
      id: plan.id,
      title: plan.row.title,
      statusId: plan.statusId,
      icon: plan.row.icon,
      archived: plan.row.archived,
      content: plan.content,
      properties: plan.properties,
      collectionId: plan.collectionId,
      parentId: plan.parentId,
      sortKey: sortKeys.get(plan.id),
    })),
    current,
  );

  await refuseLoops(db, planned);

  const outcomeOf = (plan: Planned): Outcome['outcome'] =>
    isNew(plan) ? 'created' : changed.has(plan.id) ? 'updated' : 'unchanged';
  return {
    outcomes: planned.map((plan) => ({
      externalSource: plan.row.externalSource,
      externalId: plan.row.externalId,
      id: plan.id,
      outcome: outcomeOf(plan),
    })),
  };
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
