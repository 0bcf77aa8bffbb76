import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import * as groups from './groups.js';
import {
  Collection,
  CollectionDetail,
  CollectionGroup,
  CreateCollection,
  CreateCollectionGroup,
  ReorderCollectionGroups,
  ReorderCollections,
  UpdateCollection,
  UpdateCollectionGroup,
} from './schemas.js';
import * as service from './service.js';

const WorkspaceParams = IdParams('workspaceId');
const CollectionParams = IdParams('workspaceId', 'collectionId');

export function collectionRoutes(router: Router, ctx: AppContext): void {
  const tags = ['Collections'];
  router.get('/workspaces/:workspaceId/collections', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listCollections',
      summary: 'The lists of the workspace, in sidebar order',
      params: WorkspaceParams,
      response: { 200: Type.Array(Collection) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        service.listCollections(db, access.workspaceId),
      ),
  });

  router.post('/workspaces/:workspaceId/collections', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createCollection',
      summary: 'Create a list (admin)',
      description: '409 `key_prefix_taken`; 400 `unknown_field` or `unknown_group`.',
      params: WorkspaceParams,
      body: CreateCollection,
      response: { 201: Collection },
    },
    handler: async (request, reply) => {
      const collection = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => service.createCollection(trx, access, request.body),
      );
      return reply.code(201).send(collection);
    },
  });

  router.put('/workspaces/:workspaceId/collections/order', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'reorderCollections',
      summary: 'Reorder lists and move them between groups (admin)',
      description:
        'The cited lists take positions 0 to n-1 in the order cited, with the group given; lists not cited are untouched. ' +
        'One transaction; one `collection.updated` per list actually moved. 409 `collection_not_found` or ' +
        '`group_not_found` when a cited list or group does not exist in the workspace.',
      params: WorkspaceParams,
      body: ReorderCollections,
      response: { 200: Type.Array(Collection) },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        service.reorderCollections(trx, access, request.body),
      ),
  });

  router.get('/workspaces/:workspaceId/collections/:collectionId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getCollection',
      summary: 'A list with its fields, the statuses and its views',
      params: CollectionParams,
      response: { 200: CollectionDetail },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        service.getCollectionDetail(db, access.workspaceId, request.params.collectionId),
      ),
  });

  router.patch('/workspaces/:workspaceId/collections/:collectionId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateCollection',
      summary: 'Rename a list, change its prefix or replace its columns (admin)',
      params: CollectionParams,
      body: UpdateCollection,
      response: { 200: Collection },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        service.updateCollection(trx, access, request.params.collectionId, request.body),
      ),
  });

  router.delete('/workspaces/:workspaceId/collections/:collectionId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteCollection',
      summary: 'Delete a list with its views and the cards whose home it is (admin)',
      description:
        'Cards only attached to it stay in their home lists. Everything is logged under one batch id.',
      params: CollectionParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => service.deleteCollection(trx, access, request.params.collectionId),
      );
      return reply.code(204).send(null);
    },
  });

  groupRoutes(router, ctx);
}

function groupRoutes(router: Router, ctx: AppContext): void {
  const tags = ['Collection groups'];
  const GroupParams = IdParams('workspaceId', 'groupId');
  router.get('/workspaces/:workspaceId/collection-groups', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listCollectionGroups',
      summary: 'The sidebar groups of lists, in order',
      params: WorkspaceParams,
      response: { 200: Type.Array(CollectionGroup) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'schema.read', (db, access) =>
        groups.listGroups(db, access.workspaceId),
      ),
  });

  router.post('/workspaces/:workspaceId/collection-groups', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createCollectionGroup',
      summary: 'Create a group at the end (admin)',
      params: WorkspaceParams,
      body: CreateCollectionGroup,
      response: { 201: CollectionGroup },
    },
    handler: async (request, reply) => {
      const group = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => groups.createGroup(trx, access, request.body.name),
      );
      return reply.code(201).send(group);
    },
  });

  router.put('/workspaces/:workspaceId/collection-groups/order', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'reorderCollectionGroups',
      summary: 'Reorder the groups (admin)',
      params: WorkspaceParams,
      body: ReorderCollectionGroups,
      response: { 200: Type.Array(CollectionGroup) },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        groups.reorderGroups(trx, access, request.body.groupIds),
      ),
  });

  router.patch('/workspaces/:workspaceId/collection-groups/:groupId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'renameCollectionGroup',
      summary: 'Rename a group (admin)',
      params: GroupParams,
      body: UpdateCollectionGroup,
      response: { 200: CollectionGroup },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'schema.write', (trx, access) =>
        groups.renameGroup(trx, access, request.params.groupId, request.body.name),
      ),
  });

  router.delete('/workspaces/:workspaceId/collection-groups/:groupId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteCollectionGroup',
      summary: 'Delete a group; its lists stay, ungrouped (admin)',
      params: GroupParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'schema.write',
        (trx, access) => groups.deleteGroup(trx, access, request.params.groupId),
      );
      return reply.code(204).send(null);
    },
  });
}
