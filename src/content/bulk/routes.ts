import { IdParams } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { ViewRequest } from '../queries/schemas.js';
import { BULK_MAX, BulkPreview, BulkResult, BulkUpdate, CONFIRM_ABOVE } from './schemas.js';
import * as service from './service.js';

const tags = ['Bulk edits'];
const CollectionParams = IdParams('workspaceId', 'collectionId');

export function bulkRoutes(router: Router, ctx: AppContext): void {
  router.post('/workspaces/:workspaceId/collections/:collectionId/bulk-preview', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'bulkPreview',
      summary: 'How many cards a bulk update with this definition would select',
      params: CollectionParams,
      body: ViewRequest,
      response: { 200: BulkPreview },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'items.read', (db, access) =>
        service.bulkPreview(db, access, request.params.collectionId, request.body.definition),
      ),
  });

  router.post('/workspaces/:workspaceId/collections/:collectionId/bulk-update', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'bulkUpdate',
      summary: 'Update every card the definition’s filter selects, in one transaction',
      description:
        `400 \`empty_patch\`; 400 \`expected_count_required\` above ${CONFIRM_ABOVE} cards without expectedCount; ` +
        `400 \`bulk_too_large\` above ${BULK_MAX}; 409 \`expected_count_mismatch\` when the live selection differs. ` +
        'One `item.updated` per card that actually changed, all with the returned `batchId`: read them with ' +
        '`GET /workspaces/{workspaceId}/events?batchId=`.',
      params: CollectionParams,
      body: BulkUpdate,
      response: { 200: BulkResult },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'items.write', (trx, access) =>
        service.bulkUpdate(trx, access, request.params.collectionId, request.body),
      ),
  });
}
