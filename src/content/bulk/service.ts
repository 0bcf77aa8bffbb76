import { isDeepStrictEqual } from 'node:util';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Changes } from '../../events/types.js';
import { recordEvents } from '../../events/writer.js';
import { badRequest, conflict } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { loadRegistry } from '../fields/registry.js';
import { validateProperties } from '../items/properties.js';
import { prepare } from '../queries/service.js';
import { countStatement, lockSelectionStatement } from '../query/statements.js';
import { findStatus } from '../statuses/service.js';
import {
  BULK_MAX,
  type BulkPatch,
  type BulkResult,
  type BulkUpdate,
  CONFIRM_ABOVE,
} from './schemas.js';

export async function bulkPreview(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  raw: Record<string, unknown>,
) {
  const prepared = await prepare(db, access, collectionId, raw);
  const { rows } = await countStatement(prepared.scope, prepared.definition, prepared).execute(db);
  return { count: Number(rows[0]?.count ?? 0), confirmAbove: CONFIRM_ABOVE, max: BULK_MAX };
}

interface ValidPatch {
  statusId: string | null;
  set: Record<string, unknown>;
  remove: string[];
  archive: boolean;
}

/** Validates the patch once, against the registry, the statuses and the members. */
async function validatePatch(
  db: Database,
  workspaceId: string,
  patch: BulkPatch,
): Promise<ValidPatch> {
  const properties = patch.properties ?? {};
  if (
    patch.statusId === undefined &&
    Object.keys(properties).length === 0 &&
    patch.archived === undefined
  ) {
    throw badRequest('empty_patch', 'The patch changes nothing');
  }
  if (
    patch.statusId !== undefined &&
    (await findStatus(db, workspaceId, patch.statusId)) === undefined
  ) {
    throw badRequest('invalid_status', 'statusId is not a status of this workspace', {
      statusId: patch.statusId,
    });
  }
  const registry = await loadRegistry(db, workspaceId);
  const values = await validateProperties(db, workspaceId, registry, properties, true);
  const set = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
  const remove = Object.keys(values).filter((key) => values[key] === null);
  return { statusId: patch.statusId ?? null, set, remove, archive: patch.archived === true };
}

interface ChangedRow {
  id: string;
  before_status: string;
  after_status: string;
  before_properties: Record<string, unknown>;
  after_properties: Record<string, unknown>;
  before_archived: Date | null;
  after_archived: Date | null;
}

/** One UPDATE for the whole selection, changing only the cards whose values differ. */
function updateStatement(ids: readonly string[], patch: ValidPatch) {
  const status = sql`coalesce(cast(${patch.statusId} as uuid), items.status_id)`;
  const properties = sql`((items.properties || cast(${JSON.stringify(patch.set)} as jsonb)) - cast(${patch.remove} as text[]))`;
  const archived = patch.archive ? sql`coalesce(items.archived_at, now())` : sql`items.archived_at`;
  return sql<ChangedRow>`
    with target as (
      select id, status_id, properties, archived_at from items where id = any(cast(${[...ids]} as uuid[]))
    ),
    changed as (
      update items set status_id = ${status}, properties = ${properties}, archived_at = ${archived}, updated_at = now()
      from target
      where items.id = target.id
        and (items.status_id is distinct from ${status}
          or items.properties is distinct from ${properties}
          or items.archived_at is distinct from ${archived})
      returning items.id, items.status_id, items.properties, items.archived_at
    )
    select changed.id, target.status_id as before_status, changed.status_id as after_status,
           target.properties as before_properties, changed.properties as after_properties,
           target.archived_at as before_archived, changed.archived_at as after_archived
    from changed join target on target.id = changed.id
    order by changed.id`;
}

function changesOf(row: ChangedRow, patch: ValidPatch): Changes {
  const changes: Changes = {};
  if (row.before_status !== row.after_status)
    changes.statusId = { before: row.before_status, after: row.after_status };
  for (const key of [...Object.keys(patch.set), ...patch.remove]) {
    const before = row.before_properties[key] ?? null;
    const after = row.after_properties[key] ?? null;
    if (!isDeepStrictEqual(before, after)) changes[`properties.${key}`] = { before, after };
  }
  if ((row.before_archived === null) !== (row.after_archived === null)) {
    changes.archivedAt = {
      before: row.before_archived?.toISOString() ?? null,
      after: row.after_archived?.toISOString() ?? null,
    };
  }
  return changes;
}

/**
 * Bulk update (spec rules 4 to 8): the same filter as the views, the
 * selection locked and compared with `expectedCount` in this transaction,
 * one UPDATE, one `item.updated` per changed card, all with one batch id.
 */
export async function bulkUpdate(
  db: Database,
  access: WorkspaceAccess,
  collectionId: string,
  input: BulkUpdate,
): Promise<BulkResult> {
  const prepared = await prepare(db, access, collectionId, input.definition);
  const patch = await validatePatch(db, access.workspaceId, input.patch);
  const { rows: selected } = await lockSelectionStatement(
    prepared.scope,
    prepared.definition,
    prepared,
  ).execute(db);
  const count = selected.length;
  if (count > BULK_MAX) {
    throw badRequest(
      'bulk_too_large',
      `A bulk update changes at most ${BULK_MAX} cards; narrow the filter`,
      { count, max: BULK_MAX },
    );
  }
  if (input.expectedCount === undefined && count > CONFIRM_ABOVE) {
    throw badRequest(
      'expected_count_required',
      `Above ${CONFIRM_ABOVE} cards, send expectedCount from bulk-preview`,
      {
        count,
        confirmAbove: CONFIRM_ABOVE,
      },
    );
  }
  if (input.expectedCount !== undefined && input.expectedCount !== count) {
    throw conflict('expected_count_mismatch', 'The selection changed since the preview', {
      expected: input.expectedCount,
      count,
    });
  }
  const batchId = newId();
  const ids = selected.map((row) => row.id);
  const { rows } = ids.length === 0 ? { rows: [] } : await updateStatement(ids, patch).execute(db);
  await recordEvents(
    db,
    { workspaceId: access.workspaceId, actor: access.actor, batchId },
    rows.map((row) => ({
      type: 'item.updated',
      resource: { kind: 'item', id: row.id },
      changes: changesOf(row, patch),
    })),
  );
  return { batchId, changed: rows.length };
}
