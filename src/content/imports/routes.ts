import { inTransaction } from '../../db/transaction.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { holdRegistry } from '../fields/registry-lock.js';
import type { StoredKeys } from '../files/pairs.js';
import { decodeFiles } from './files.js';
import { ImportRequest, ImportResult, MAX_IMPORT_ITEMS } from './schemas.js';
import { runImport } from './service.js';

export function importRoutes(router: Router, ctx: AppContext): void {
  const storage = ctx.files;
  const { route } = workspaceRoutes(router, ctx, ['Import']);
  route({
    method: 'POST',
    url: '/workspaces/:workspaceId/import',
    action: 'import.run',
    app: ['items:write'],
    // The import opens its own transaction: it records the file bytes each
    // attempt wrote, to remove them after a retry, a refusal or a commit.
    transaction: false,
    options: { bodyLimit: Math.max(ctx.config.importBodyLimit, ctx.config.bodyLimit) },
    operationId: 'importBatch',
    summary: 'Import collections, files and cards idempotently by their external identity',
    description:
      'Records carry `externalSource` and `externalId`; the pair is unique per kind in the workspace and outside ' +
      'the reach of ordinary edits. A pair seen before updates what changed and counts the rest `unchanged`; the ' +
      `answer counts created, updated and unchanged per kind and gives each record its id. At most ${MAX_IMPORT_ITEMS} ` +
      'items a request; the first answer carries a `batchId` that the following requests send (404 for an unknown one)' +
      '. Cards cite their list and parent by `{id}` or `{externalSource?, externalId}`, in this request or an ' +
      'earlier one, and a `file` property may cite an imported file the same way. Files travel as base64 ' +
      '(`contentBase64`, each at most `MAX_UPLOAD_BYTES`, the whole request at most `IMPORT_BODY_LIMIT`); same ' +
      'name and bytes count as unchanged; files are not logged (no event type). One transaction per request: a ' +
      'refused row refuses the request with `import_row_refused` and `details: {kind, index, code, reason}`, ' +
      'nothing written. Events carry `cause: import` and the batch id (read them with `?batchId=`, leave them out ' +
      'with `?cause=edit`); webhooks get one delivery per request and event type. Needs `member`; collections ' +
      'also need `admin` (apps: `items:write`, plus `schema:write` for collections and `files:write` for files).',
    body: ImportRequest,
    response: ImportResult,
    errors: [
      'import_row_refused',
      'missing_scope',
      'file_too_large',
      'duplicate_external_id',
      // A block document the schema refuses (see `block-schemas.ts`).
      'invalid_block',
      'unknown_block_type',
      'unknown_mark',
      'invalid_indent',
    ],
    handler: async (_db, access, request) => {
      const files = decodeFiles(request.body.files ?? [], ctx.config.maxUploadBytes);
      // One record per transaction attempt (a deadlock retries from the start).
      const attempts: StoredKeys[] = [];
      const removeAll = (keys: readonly string[]) =>
        Promise.all(keys.map((key) => storage.remove(key).catch(() => {})));
      try {
        const result = await inTransaction(ctx.db, async (trx) => {
          const keys: StoredKeys = { written: [], replaced: [] };
          attempts.push(keys);
          // Its own transaction, so it holds the registry itself (see registry-lock.ts).
          await holdRegistry(trx, access.workspaceId, 'shared');
          return runImport(trx, storage, access, request.body, files, keys);
        });
        const committed = attempts.at(-1);
        await removeAll([
          ...(committed?.replaced ?? []),
          ...attempts.slice(0, -1).flatMap((keys) => keys.written),
        ]);
        return result;
      } catch (error) {
        await removeAll(attempts.flatMap((keys) => keys.written));
        throw error;
      }
    },
  });
}
