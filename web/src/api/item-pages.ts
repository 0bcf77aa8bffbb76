import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { ViewDefinition } from './lists.js';
import type { components } from './schema.js';

export type Item = components['schemas']['Item'];

/** Rows per page of the table: the API's largest, so a long scroll asks least often. */
export const TABLE_PAGE_SIZE = 200;

/**
 * A list's cards through a view definition, in keyset pages (follow
 * `nextCursor`). Keyed under the list's items, so a change to any card of the
 * list (live stream, inline create, bulk edit) refreshes every page.
 */
export const itemPagesQuery = (
  workspaceId: string,
  collectionId: string,
  definition: ViewDefinition,
) =>
  infiniteQueryOptions({
    queryKey: [...keys.items(workspaceId, collectionId), 'pages', definition] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/query', {
          params: { path: { workspaceId, collectionId } },
          body: {
            definition,
            limit: TABLE_PAGE_SIZE,
            ...(pageParam === undefined ? {} : { cursor: pageParam }),
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** Creates a card in a list, then refreshes the list's pages. */
export function useCreateItem(workspaceId: string, collectionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateItem']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/items', {
          params: { path: { workspaceId, collectionId } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.items(workspaceId, collectionId) }),
  });
}
