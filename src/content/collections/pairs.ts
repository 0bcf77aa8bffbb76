import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { created, diff } from '../../events/changes.js';
import type { EventInput } from '../../events/types.js';
import { type EventScope, recordEvents } from '../../events/writer.js';
import { newId } from '../../lib/ids.js';
import { existingFieldIds } from '../fields/registry.js';
import { collectionEventValues, toCollection } from './mapping.js';
import { collectionColumns } from './repository.js';

/** A list as another system names it: by its external pair (imports). */
export interface PairedCollection {
  externalSource: string;
  externalId: string;
  name: string;
  keyPrefix: string;
  description?: string | null;
  icon?: string | null;
  fieldIds?: string[];
}

/** What became of one row: the list's id and whether it was written. */
export interface PairedOutcome {
  id: string;
  outcome: 'created' | 'updated' | 'unchanged';
}

/** How the caller refuses a row of its batch; the error thrown ends the whole batch. */
export type RefuseRow = (index: number, code: string, reason: string, details?: unknown) => Error;

function pairOf(source: string | null, id: string | null): string {
  return JSON.stringify([source ?? '', id ?? '']);
}

/**
 * Creates or updates lists by their external pair, in row order, and logs
 * them in one call under `scope`. Key prefixes are checked against the
 * workspace and the rows before them (a clash refuses the row) before
 * anything is written, since a failed statement would end the transaction.
 * The caller has checked that no pair appears twice.
 */
export async function writeCollectionsByPair(
  db: Database,
  scope: EventScope,
  rows: readonly PairedCollection[],
  refuse: RefuseRow,
): Promise<PairedOutcome[]> {
  if (rows.length === 0) return [];
  const { workspaceId } = scope;
  const existing = await db
    .selectFrom('collections')
    .select([...collectionColumns, 'external_source', 'external_id'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .forUpdate()
    .execute();
  const byPair = new Map(
    existing
      .filter((row) => row.external_source !== null && row.external_id !== null)
      .map((row) => [pairOf(row.external_source, row.external_id), row]),
  );
  const prefixOwner = new Map(existing.map((row) => [row.key_prefix, row.id]));
  const fieldIds = rows.flatMap((row) => row.fieldIds ?? []);
  const knownFields = await existingFieldIds(db, workspaceId, [...new Set(fieldIds)]);
  let position = existing.reduce((max, row) => Math.max(max, row.position), -1);
  const outcomes: PairedOutcome[] = [];
  const events: EventInput[] = [];
  for (const [index, row] of rows.entries()) {
    const current = byPair.get(pairOf(row.externalSource, row.externalId));
    const id = current?.id ?? newId();
    const unknownField = (row.fieldIds ?? []).find((fieldId) => !knownFields.has(fieldId));
    if (unknownField !== undefined) {
      throw refuse(index, 'unknown_field', 'fieldIds names an unknown field', {
        fieldId: unknownField,
      });
    }
    const owner = prefixOwner.get(row.keyPrefix);
    if (owner !== undefined && owner !== id) {
      throw refuse(index, 'key_prefix_taken', 'Another list uses this key prefix', {
        keyPrefix: row.keyPrefix,
      });
    }
    if (current !== undefined && current.key_prefix !== row.keyPrefix) {
      prefixOwner.delete(current.key_prefix);
    }
    prefixOwner.set(row.keyPrefix, id);
    if (current === undefined) {
      position += 1;
      const inserted = await db
        .insertInto('collections')
        .values({
          id,
          workspace_id: workspaceId,
          name: row.name.trim(),
          key_prefix: row.keyPrefix,
          description: row.description ?? null,
          icon: row.icon ?? null,
          field_ids: row.fieldIds ?? [],
          group_id: null,
          position,
          external_source: row.externalSource,
          external_id: row.externalId,
        })
        .returning(collectionColumns)
        .executeTakeFirstOrThrow();
      events.push({
        type: 'collection.created',
        resource: { kind: 'collection', id },
        changes: created(collectionEventValues(toCollection(inserted))),
      });
      outcomes.push({ id, outcome: 'created' });
      continue;
    }
    const before = toCollection(current);
    const after = {
      ...before,
      name: row.name.trim(),
      keyPrefix: row.keyPrefix,
      description: row.description === undefined ? before.description : row.description,
      icon: row.icon === undefined ? before.icon : row.icon,
      fieldIds: row.fieldIds ?? before.fieldIds,
    };
    const changes = diff(before, after, ['name', 'keyPrefix', 'fieldIds', 'description', 'icon']);
    if (Object.keys(changes).length === 0) {
      outcomes.push({ id, outcome: 'unchanged' });
      continue;
    }
    await db
      .updateTable('collections')
      .set({
        name: after.name,
        key_prefix: after.keyPrefix,
        description: after.description,
        icon: after.icon,
        field_ids: after.fieldIds,
        updated_at: sql<Date>`now()`,
      })
      .where('id', '=', id)
      .execute();
    events.push({ type: 'collection.updated', resource: { kind: 'collection', id }, changes });
    outcomes.push({ id, outcome: 'updated' });
  }
  await recordEvents(db, scope, events);
  return outcomes;
}
