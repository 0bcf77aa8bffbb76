import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { requireCollection } from '../collections/service.js';
import { CollectionView, CreateCollectionView, UpdateCollectionView } from './schemas.js';
import * as service from './service.js';

const tags = ['Views'];
const CollectionParams = IdParams('workspaceId', 'collectionId');
const ViewParams = IdParams('workspaceId', 'collectionId', 'viewId');

export function viewRoutes(router: Router, ctx: AppContext): void {
  router.get('/workspaces/:workspaceId/collections/:collectionId/views', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listViews',
      summary: 'The saved views of a list',
      params: CollectionParams,
      response: { 200: Type.Array(CollectionView) },
    },
    handler: (request) =>
      readInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.read',
        async (db, access) => {
          await requireCollection(db, access.workspaceId, request.params.collectionId);
          return service.listViews(db, access.workspaceId, request.params.collectionId);
        },
      ),
  });

  router.post('/workspaces/:workspaceId/collections/:collectionId/views', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createView',
      summary: 'Save a view of a list (member)',
      description:
        'The definition is checked against the registry; 400 with `details.path` naming the place.',
      params: CollectionParams,
      body: CreateCollectionView,
      response: { 201: CollectionView },
    },
    handler: async (request, reply) => {
      const view = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'views.write',
        async (trx, access) => {
          await requireCollection(trx, access.workspaceId, request.params.collectionId);
          return service.createView(trx, access, request.params.collectionId, request.body);
        },
      );
      return reply.code(201).send(view);
    },
  });

  router.get('/workspaces/:workspaceId/collections/:collectionId/views/:viewId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getView',
      summary: 'A saved view',
      params: ViewParams,
      response: { 200: CollectionView },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        service.getView(db, access.workspaceId, request.params.collectionId, request.params.viewId),
      ),
  });

  router.patch('/workspaces/:workspaceId/collections/:collectionId/views/:viewId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateView',
      summary: 'Change a saved view (member)',
      params: ViewParams,
      body: UpdateCollectionView,
      response: { 200: CollectionView },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'views.write', (trx, access) =>
        service.updateView(
          trx,
          access,
          request.params.collectionId,
          request.params.viewId,
          request.body,
        ),
      ),
  });

  router.delete('/workspaces/:workspaceId/collections/:collectionId/views/:viewId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteView',
      summary: 'Delete a saved view (member)',
      params: ViewParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'views.write',
        (trx, access) =>
          service.deleteView(trx, access, request.params.collectionId, request.params.viewId),
      );
      return reply.code(204).send(null);
    },
  });
}
