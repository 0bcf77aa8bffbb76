import type { Database } from '../../db/schema.js';
import { badRequest, conflict } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { WorkspaceAccess } from '../access/authorize.js';
import { loadRegistry } from '../fields/registry.js';
import { validateProperties } from '../items/properties.js';
import type { StoredCard } from '../items/write/state.js';
import { type CardUpdate, storedCardColumns, updateCards } from '../items/write/update.js';
import { prepare } from '../queries/service.js';
import { findStatus } from '../statuses/service.js';
import { countStatement, lockSelectionStatement } from '../view-compiler/statements.js';
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

/** Validates the patch once, against the registry, the statuses and the members. */
async function validatePatch(
  db: Database,
  workspaceId: string,
  patch: BulkPatch,
): Promise<Omit<CardUpdate, 'id'>> {
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
  return {
    statusId: patch.statusId,
    properties: Object.keys(values).length > 0 ? values : undefined,
    archived: patch.archived === true ? true : undefined,
  };
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
  // The selection is locked with what the write path compares, so it is read once.
  const { rows: selected } = await lockSelectionStatement<StoredCard>(
    prepared.scope,
    prepared.definition,
    prepared,
    storedCardColumns(false),
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
  const changed = await updateCards(
    db,
    { workspaceId: access.workspaceId, actor: access.actor, sinks: access.eventSinks, batchId },
    selected.map((row) => ({ ...patch, id: row.id })),
    selected,
  );
  return { batchId, changed: changed.size };
}
