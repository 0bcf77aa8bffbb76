import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { CreateStatus, ReorderStatuses, Status, UpdateStatus } from './schemas.js';
import * as service from './service.js';

export function statusRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Statuses']);
  const write = { action: 'schema.write', app: ['schema:write'] } as const;

  route({
    method: 'GET',
    url: '/workspaces/:workspaceId/statuses',
    action: 'schema.read',
    app: ['schema:read'],
    operationId: 'listStatuses',
    summary: 'The workspace statuses, in order',
    response: Type.Array(Status),
    handler: (db, access) => service.listStatuses(db, access.workspaceId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/statuses',
    operationId: 'createStatus',
    summary: 'Add a status at the end of the order (admin)',
    description: 'Names are unique in the workspace, compared case-insensitively.',
    body: CreateStatus,
    response: Status,
    status: 201,
    errors: ['status_name_taken'],
    handler: (trx, access, request) => service.createStatus(trx, access, request.body),
  });

  route({
    ...write,
    method: 'PUT',
    url: '/workspaces/:workspaceId/statuses/order',
    operationId: 'reorderStatuses',
    summary: 'Reorder the statuses (admin)',
    description:
      'The body lists every status once, in the new order. ' +
      'One `status.updated` event per status whose position changed.',
    body: ReorderStatuses,
    response: Type.Array(Status),
    errors: ['invalid_order'],
    handler: (trx, access, request) => service.reorderStatuses(trx, access, request.body),
  });

  route({
    ...write,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/statuses/:statusId',
    operationId: 'updateStatus',
    summary: 'Rename, recolor or recategorize a status (admin)',
    body: UpdateStatus,
    response: Status,
    errors: ['status_name_taken'],
    handler: (trx, access, request) =>
      service.updateStatus(trx, access, request.params.statusId, request.body),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/statuses/:statusId',
    operationId: 'deleteStatus',
    registry: 'exclusive',
    summary: 'Delete a status (admin)',
    description: 'Refused while items use it, and for the last one.',
    response: NoContent,
    errors: ['status_in_use', 'last_status'],
    handler: (trx, access, request) => service.deleteStatus(trx, access, request.params.statusId),
  });
}
