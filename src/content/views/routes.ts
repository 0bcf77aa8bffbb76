import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { requireCollection } from '../collections/service.js';
import { DEFINITION_ERRORS } from '../queries/routes.js';
import { CollectionView, CreateCollectionView, UpdateCollectionView } from './schemas.js';
import * as service from './service.js';

export function viewRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Views']);
  const read = { action: 'schema.read', app: ['schema:read'] } as const;
  const write = { action: 'views.write', app: ['schema:write'] } as const;
  const errors = [...DEFINITION_ERRORS, 'invalid_display' as const];

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/collections/:collectionId/views',
    operationId: 'listViews',
    summary: 'The saved views of a list',
    response: Type.Array(CollectionView),
    handler: async (db, access, request) => {
      await requireCollection(db, access.workspaceId, request.params.collectionId);
      return service.listViews(db, access.workspaceId, request.params.collectionId);
    },
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/views',
    operationId: 'createView',
    registry: 'shared',
    summary: 'Save a view of a list (member)',
    description: 'The definition is checked against the registry; `details.path` names the place.',
    body: CreateCollectionView,
    response: CollectionView,
    status: 201,
    errors,
    handler: async (trx, access, request) => {
      await requireCollection(trx, access.workspaceId, request.params.collectionId);
      return service.createView(trx, access, request.params.collectionId, request.body);
    },
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/collections/:collectionId/views/:viewId',
    operationId: 'getView',
    summary: 'A saved view',
    response: CollectionView,
    handler: (db, access, request) =>
      service.getView(db, access.workspaceId, request.params.collectionId, request.params.viewId),
  });

  route({
    ...write,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/collections/:collectionId/views/:viewId',
    operationId: 'updateView',
    registry: 'shared',
    summary: 'Change a saved view (member)',
    body: UpdateCollectionView,
    response: CollectionView,
    errors,
    handler: (trx, access, request) =>
      service.updateView(
        trx,
        access,
        request.params.collectionId,
        request.params.viewId,
        request.body,
      ),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/collections/:collectionId/views/:viewId',
    operationId: 'deleteView',
    summary: 'Delete a saved view (member)',
    response: NoContent,
    handler: (trx, access, request) =>
      service.deleteView(trx, access, request.params.collectionId, request.params.viewId),
  });
}
