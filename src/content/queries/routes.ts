import Type from 'typebox';
import { IdParams } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace } from '../access/scope.js';
import {
  GroupCount,
  GroupedPage,
  GroupedQuery,
  ItemPage,
  QueryView,
  ViewRequest,
} from './schemas.js';
import { SearchPage, SearchQuery, searchItems } from './search.js';
import * as service from './service.js';

const tags = ['Queries'];
const CollectionParams = IdParams('workspaceId', 'collectionId');

export function queryRoutes(router: Router, ctx: AppContext): void {
  router.post('/workspaces/:workspaceId/collections/:collectionId/query', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'queryView',
      summary: 'A keyset page of a list through a view definition',
      description:
        '400 for an invalid definition (`details.path` names the place) or cursor (`invalid_cursor`).',
      params: CollectionParams,
      body: QueryView,
      response: { 200: ItemPage },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'items.read', (db, access) =>
        service.queryView(db, access, request.params.collectionId, request.body),
      ),
  });

  router.post('/workspaces/:workspaceId/collections/:collectionId/group-counts', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'groupCounts',
      summary: 'How many cards each group of the definition’s groupBy holds',
      description:
        'Declared values first (statuses or options in their order, true then false), then other values; the empty ' +
        'group (`null`) last when it has cards. 400 `group_by_required` without a groupBy.',
      params: CollectionParams,
      body: ViewRequest,
      response: { 200: Type.Array(GroupCount) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'items.read', (db, access) =>
        service.groupCounts(db, access, request.params.collectionId, request.body.definition),
      ),
  });

  router.post('/workspaces/:workspaceId/collections/:collectionId/grouped-query', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'groupedQuery',
      summary: 'One page per requested group: kanban columns, calendar days',
      description: 'Every requested group is answered, even when empty. Cursors are per group.',
      params: CollectionParams,
      body: GroupedQuery,
      response: { 200: GroupedPage },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'items.read', (db, access) =>
        service.groupedQuery(db, access, request.params.collectionId, request.body),
      ),
  });

  router.get('/workspaces/:workspaceId/search', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'searchItems',
      summary: 'Full-text search over the titles and bodies of active cards',
      params: IdParams('workspaceId'),
      querystring: SearchQuery,
      response: { 200: SearchPage },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'items.read', (db, access) =>
        searchItems(db, access.workspaceId, request.query),
      ),
  });
}
