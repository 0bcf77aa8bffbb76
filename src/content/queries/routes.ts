import Type from 'typebox';
import type { ErrorCode } from '../../http/error-codes.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
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

/** What a view definition can be refused for; `details.path` names the place. */
export const DEFINITION_ERRORS: readonly ErrorCode[] = [
  'invalid_definition',
  'definition_too_deep',
  'too_many_conditions',
  'invalid_operator',
  'invalid_value',
  'unknown_field',
  'unknown_attribute',
  'unknown_option',
  'unknown_status',
  'field_not_sortable',
  'field_not_groupable',
];

export function queryRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Queries']);
  const read = { action: 'items.read', app: ['items:read'] } as const;

  route({
    ...read,
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/query',
    operationId: 'queryView',
    summary: 'A keyset page of a list through a view definition',
    description:
      'Follow `nextCursor` to the end to visit every card whose sort values do not change during the walk ' +
      'exactly once, whatever is inserted, edited or deleted meanwhile. A card whose sort values change during ' +
      'the walk is met where it stands at each page: twice if it moves ahead of the cursor, not at all if it ' +
      'moves behind it.',
    body: QueryView,
    response: ItemPage,
    errors: [...DEFINITION_ERRORS, 'invalid_cursor'],
    handler: (db, access, request) =>
      service.queryView(db, access, request.params.collectionId, request.body),
  });

  route({
    ...read,
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/group-counts',
    operationId: 'groupCounts',
    summary: 'How many cards each group of the definition’s groupBy holds',
    description:
      'Declared values first (statuses or options in their order, true then false), then other values; the empty ' +
      'group (`null`) last when it has cards.',
    body: ViewRequest,
    response: Type.Array(GroupCount),
    errors: [...DEFINITION_ERRORS, 'group_by_required'],
    handler: (db, access, request) =>
      service.groupCounts(db, access, request.params.collectionId, request.body.definition),
  });

  route({
    ...read,
    method: 'POST',
    url: '/workspaces/:workspaceId/collections/:collectionId/grouped-query',
    operationId: 'groupedQuery',
    summary: 'One page per requested group: kanban columns, calendar days',
    description: 'Every requested group is answered, even when empty. Cursors are per group.',
    body: GroupedQuery,
    response: GroupedPage,
    errors: [...DEFINITION_ERRORS, 'group_by_required', 'invalid_group', 'invalid_cursor'],
    handler: (db, access, request) =>
      service.groupedQuery(db, access, request.params.collectionId, request.body),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/search',
    operationId: 'searchItems',
    summary: 'Full-text search over the titles and bodies of active cards',
    querystring: SearchQuery,
    response: SearchPage,
    errors: ['invalid_cursor'],
    handler: (db, access, request) => searchItems(db, access.workspaceId, request.query),
  });
}
