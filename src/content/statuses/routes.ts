import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { CreateStatus, ReorderStatuses, Status, UpdateStatus } from './schemas.js';
import * as service from './service.js';

const tags = ['Statuses'];
const WorkspaceParams = IdParams('workspaceId');
const StatusParams = IdParams('workspaceId', 'statusId');

export function statusRoutes(router: Router, ctx: AppContext): void {
  router.get('/workspaces/:workspaceId/statuses', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listStatuses',
      summary: 'The workspace statuses, in order',
      params: WorkspaceParams,
      response: { 200: Type.Array(Status) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        service.listStatuses(db, access.workspaceId),
      ),
  });

  router.post('/workspaces/:workspaceId/statuses', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createStatus',
      summary: 'Add a status at the end of the order (admin)',
      description:
        'Names are unique in the workspace, compared case-insensitively (409 `status_name_taken`).',
      params: WorkspaceParams,
      body: CreateStatus,
      response: { 201: Status },
    },
    handler: async (request, reply) => {
      const status = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => service.createStatus(trx, access, request.body),
      );
      return reply.code(201).send(status);
    },
  });

  router.put('/workspaces/:workspaceId/statuses/order', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'reorderStatuses',
      summary: 'Reorder the statuses (admin)',
      description:
        'The body lists every status once, in the new order (400 `invalid_order` otherwise). ' +
        'One `status.updated` event per status whose position changed.',
      params: WorkspaceParams,
      body: ReorderStatuses,
      response: { 200: Type.Array(Status) },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        service.reorderStatuses(trx, access, request.body),
      ),
  });

  router.patch('/workspaces/:workspaceId/statuses/:statusId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateStatus',
      summary: 'Rename, recolor or recategorize a status (admin)',
      params: StatusParams,
      body: UpdateStatus,
      response: { 200: Status },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        service.updateStatus(trx, access, request.params.statusId, request.body),
      ),
  });

  router.delete('/workspaces/:workspaceId/statuses/:statusId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteStatus',
      summary: 'Delete a status (admin)',
      description: '409 `status_in_use` while items use it; 409 `last_status` for the last one.',
      params: StatusParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => service.deleteStatus(trx, access, request.params.statusId),
      );
      return reply.code(204).send(null);
    },
  });
}
