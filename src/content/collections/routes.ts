import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
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

export function collectionRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Collections']);
  const read = { action: 'schema.read', app: ['schema:read'] } as const;
  const write = { action: 'schema.write', app: ['schema:write'] } as const;

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/collections',
    operationId: 'listCollections',
    summary: 'The lists of the workspace, in sidebar order',
    response: Type.Array(Collection),
    handler: (db, access) => service.listCollections(db, access.workspaceId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/collections',
    operationId: 'createCollection',
    registry: 'shared',
    summary: 'Create a list (admin)',
    body: CreateCollection,
    response: Collection,
    status: 201,
    errors: ['key_prefix_taken', 'unknown_field', 'unknown_group'],
    handler: (trx, access, request) => service.createCollection(trx, access, request.body),
  });

  route({
    ...write,
    method: 'PUT',
    url: '/workspaces/:workspaceId/collections/order',
    operationId: 'reorderCollections',
    summary: 'Reorder lists and move them between groups (admin)',
    description:
      'The cited lists take positions 0 to n-1 in the order cited, with the group given; lists not cited are untouched. ' +
      'One transaction; one `collection.updated` per list actually moved.',
    body: ReorderCollections,
    response: Type.Array(Collection),
    errors: ['collection_not_found', 'group_not_found', 'duplicate_collection'],
    handler: (trx, access, request) => service.reorderCollections(trx, access, request.body),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/collections/:collectionId',
    operationId: 'getCollection',
    summary: 'A list with its fields, the statuses and its views',
    response: CollectionDetail,
    handler: (db, access, request) =>
      service.getCollectionDetail(db, access.workspaceId, request.params.collectionId),
  });

  route({
    ...write,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/collections/:collectionId',
    operationId: 'updateCollection',
    registry: 'shared',
    summary: 'Rename a list, change its prefix or replace its columns (admin)',
    body: UpdateCollection,
    response: Collection,
    errors: ['key_prefix_taken', 'unknown_field', 'unknown_group'],
    handler: (trx, access, request) =>
      service.updateCollection(trx, access, request.params.collectionId, request.body),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/collections/:collectionId',
    operationId: 'deleteCollection',
    summary: 'Delete a list with its views and the cards whose home it is (admin)',
    description:
      'Cards only attached to it stay in their home lists. Everything is logged under one batch id.',
    response: NoContent,
    handler: (trx, access, request) =>
      service.deleteCollection(trx, access, request.params.collectionId),
  });

  groupRoutes(router, ctx);
}

function groupRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Collection groups']);
  const write = { action: 'schema.write', app: ['schema:write'] } as const;

  route({
    method: 'GET',
    url: '/workspaces/:workspaceId/collection-groups',
    action: 'schema.read',
    app: ['schema:read'],
    operationId: 'listCollectionGroups',
    summary: 'The sidebar groups of lists, in order',
    response: Type.Array(CollectionGroup),
    handler: (db, access) => groups.listGroups(db, access.workspaceId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/workspaces/:workspaceId/collection-groups',
    operationId: 'createCollectionGroup',
    summary: 'Create a group at the end (admin)',
    body: CreateCollectionGroup,
    response: CollectionGroup,
    status: 201,
    handler: (trx, access, request) => groups.createGroup(trx, access, request.body.name),
  });

  route({
    ...write,
    method: 'PUT',
    url: '/workspaces/:workspaceId/collection-groups/order',
    operationId: 'reorderCollectionGroups',
    summary: 'Reorder the groups (admin)',
    body: ReorderCollectionGroups,
    response: Type.Array(CollectionGroup),
    errors: ['group_not_found'],
    handler: (trx, access, request) => groups.reorderGroups(trx, access, request.body.groupIds),
  });

  route({
    ...write,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/collection-groups/:groupId',
    operationId: 'renameCollectionGroup',
    summary: 'Rename a group (admin)',
    body: UpdateCollectionGroup,
    response: CollectionGroup,
    handler: (trx, access, request) =>
      groups.renameGroup(trx, access, request.params.groupId, request.body.name),
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/collection-groups/:groupId',
    operationId: 'deleteCollectionGroup',
    summary: 'Delete a group; its lists stay, ungrouped (admin)',
    response: NoContent,
    handler: (trx, access, request) => groups.deleteGroup(trx, access, request.params.groupId),
  });
}
