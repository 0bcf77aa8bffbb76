import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import { requireRoleFor, type WorkspaceAccess } from '../access/authorize.js';
import { type AppScope, requireAppScopes } from '../apps/scopes.js';
import type { StoredKeys } from '../files/pairs.js';
import type { FileStorage } from '../files/storage.js';
import { importCollections } from './collections.js';
import { type DecodedFile, importFiles } from './files.js';
import { importItems } from './items.js';
import type { ImportRequest, ImportResult, Outcome } from './schemas.js';

function count(outcomes: readonly Outcome[]) {
  return {
    created: outcomes.filter((outcome) => outcome.outcome === 'created').length,
    updated: outcomes.filter((outcome) => outcome.outcome === 'updated').length,
    unchanged: outcomes.filter((outcome) => outcome.outcome === 'unchanged').length,
  };
}

/** Lists need the role (and an app the scope) that creating them needs anywhere else. */
function checkKinds(access: WorkspaceAccess, input: ImportRequest): void {
  const scopes: AppScope[] = [];
  if ((input.collections ?? []).length > 0) {
    requireRoleFor(access.role, 'schema.write');
    scopes.push('schema:write');
  }
  if ((input.files ?? []).length > 0) scopes.push('files:write');
  requireAppScopes(access.principal, scopes);
}

/** The batch of this request: a new one, or the one named (locked, so its requests queue). */
async function openBatch(
  db: Database,
  access: WorkspaceAccess,
  batchId: string | undefined,
): Promise<string> {
  if (batchId === undefined) {
    const id = newId();
    await db
      .insertInto('import_batches')
      .values({ id, workspace_id: access.workspaceId, created_by: access.userId, requests: 1 })
      .execute();
    return id;
  }
  const row = await db
    .updateTable('import_batches')
    .set({ requests: sql<number>`requests + 1`, last_used_at: sql<Date>`now()` })
    .where('workspace_id', '=', access.workspaceId)
    .where('id', '=', batchId)
    .returning('id')
    .executeTakeFirst();
  if (row === undefined) throw notFound('Import batch');
  return row.id;
}

/**
 * One import request, in the caller's transaction: lists, then files, then
 * cards (which may cite both, by external pair, from this batch or an
 * earlier one). Every event carries `cause: import` and the batch id, so
 * webhooks get one delivery per type for the request. A refused row throws,
 * and nothing is written.
 */
export async function runImport(
  db: Database,
  storage: FileStorage,
  access: WorkspaceAccess,
  input: ImportRequest,
  files: readonly DecodedFile[],
  keys: StoredKeys,
): Promise<ImportResult> {
  checkKinds(access, input);
  const batchId = await openBatch(db, access, input.batchId);
  const scope = {
    workspaceId: access.workspaceId,
    actor: access.actor,
    sinks: access.eventSinks,
    batchId,
    cause: 'import' as const,
  };
  const collections = await importCollections(db, scope, input.collections ?? []);
  const fileResult = await importFiles(db, storage, access, files, keys);
  const items = await importItems(db, access, scope, input.items ?? [], {
    collections: collections.ids,
    files: fileResult.ids,
  });
  return {
    batchId,
    collections: count(collections.outcomes),
    files: count(fileResult.outcomes),
    items: count(items.outcomes),
    records: {
      collections: collections.outcomes,
      files: fileResult.outcomes,
      items: items.outcomes,
    },
  };
}
