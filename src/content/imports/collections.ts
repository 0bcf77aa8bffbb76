import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { created, diff } from '../../events/changes.js';
import type { EventInput } from '../../events/types.js';
import { newId } from '../../lib/ids.js';
import { collectionEventValues, toCollection } from '../collections/mapping.js';
import { collectionColumns } from '../collections/repository.js';
import { existingFieldIds } from '../fields/registry.js';
import { checkUnique, pairKey, refuseRow } from './rows.js';
import type { ImportCollection, Outcome } from './schemas.js';

export interface CollectionImport {
  outcomes: Outcome[];
  events: EventInput[];
  /** Pair key to collection id, for items of the same batch. */
  ids: Map<string, string>;
}

/**
 * Creates or updates lists by their external pair. Key prefixes are checked
 * against the workspace and the batch before anything is written (a clash
 * refuses the row), since a failed statement would end the transaction.
 */
export async function importCollections(
  db: Database,
  workspaceId: string,
  rows: readonly ImportCollection[],
): Promise<CollectionImport> {
  const result: CollectionImport = { outcomes: [], events: [], ids: new Map() };
  if (rows.length === 0) return result;
  checkUnique('collections', rows);
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
      .map((row) => [pairKey(row.external_source ?? '', row.external_id ?? ''), row]),
  );
  const prefixOwner = new Map(existing.map((row) => [row.key_prefix, row.id]));
  const fieldIds = rows.flatMap((row) => row.fieldIds ?? []);
  const knownFields = await existingFieldIds(db, workspaceId, [...new Set(fieldIds)]);
  let position = existing.reduce((max, row) => Math.max(max, row.position), -1);
  for (const [index, row] of rows.entries()) {
    const key = pairKey(row.externalSource, row.externalId);
    const current = byPair.get(key);
    const id = current?.id ?? newId();
    const unknownField = (row.fieldIds ?? []).find((fieldId) => !knownFields.has(fieldId));
    if (unknownField !== undefined) {
      throw refuseRow('collections', index, 'unknown_field', 'fieldIds names an unknown field', {
        fieldId: unknownField,
      });
    }
    const owner = prefixOwner.get(row.keyPrefix);
    if (owner !== undefined && owner !== id) {
      throw refuseRow(
        'collections',
        index,
        'key_prefix_taken',
        'Another list uses this key prefix',
        {
          keyPrefix: row.keyPrefix,
        },
      );
    }
    if (current !== undefined && current.key_prefix !== row.keyPrefix) {
      prefixOwner.delete(current.key_prefix);
    }
    prefixOwner.set(row.keyPrefix, id);
    result.ids.set(key, id);
    const outcome = (kind: Outcome['outcome']): Outcome => ({
      externalSource: row.externalSource,
      externalId: row.externalId,
      id,
      outcome: kind,
    });
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
      result.events.push({
        type: 'collection.created',
        resource: { kind: 'collection', id },
        changes: created(collectionEventValues(toCollection(inserted))),
      });
      result.outcomes.push(outcome('created'));
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
      result.outcomes.push(outcome('unchanged'));
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
    result.events.push({
      type: 'collection.updated',
      resource: { kind: 'collection', id },
      changes,
    });
    result.outcomes.push(outcome('updated'));
  }
  return result;
}
