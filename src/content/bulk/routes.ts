import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { DEFINITION_ERRORS } from '../queries/routes.js';
import { ViewRequest } from '../queries/schemas.js';
import { BULK_MAX, BulkPreview, BulkResult, BulkUpdate, CONFIRM_ABOVE } from './schemas.js';
import * as service from './service.js';

export function bulkRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Bulk edits']);

  route({
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/bulk-preview',
    action: 'items.read',
    app: ['items:read'],
    operationId: 'bulkPreview',
    summary: 'How many cards a bulk update with this definition would select',
    body: ViewRequest,
    response: BulkPreview,
    errors: DEFINITION_ERRORS,
    handler: (db, access, request) =>
      service.bulkPreview(db, access, request.params.collectionId, request.body.definition),
  });

  route({
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/bulk-update',
    action: 'items.write',
    app: ['items:write'],
    operationId: 'bulkUpdate',
    registry: 'shared',
    summary: 'Update every card the definition’s filter selects, in one transaction',
    description:
      `Above ${CONFIRM_ABOVE} cards the request must state \`expectedCount\`; at most ${BULK_MAX} cards; ` +
      '`expected_count_mismatch` when the live selection differs. ' +
      'One `item.updated` per card that actually changed, all with the returned `batchId`: read them with ' +
      '`GET /workspaces/{workspaceId}/events?batchId=`.',
    body: BulkUpdate,
    response: BulkResult,
    errors: [
      ...DEFINITION_ERRORS,
      'empty_patch',
      'expected_count_required',
      'bulk_too_large',
      'expected_count_mismatch',
      'unknown_property',
      'invalid_property_value',
      'option_not_declared',
      'invalid_status',
    ],
    handler: (trx, access, request) =>
      service.bulkUpdate(trx, access, request.params.collectionId, request.body),
  });
}
