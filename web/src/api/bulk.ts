import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { ViewDefinition } from './lists.js';
import type { components } from './schema.js';

export type BulkPatch = components['schemas']['BulkPatch'];
export type BulkPreview = components['schemas']['BulkPreview'];

/** How many cards the definition's filter selects now (and the API's limits). */
export const bulkPreviewQuery = (
  workspaceId: string,
  collectionId: string,
  definition: ViewDefinition,
) =>
  queryOptions({
    queryKey: [...keys.items(workspaceId, collectionId), 'count', definition] as const,
    queryFn: () =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/bulk-preview', {
          params: { path: { workspaceId, collectionId } },
          body: { definition },
        }),
      ),
  });

/** Changes every selected card in one transaction; `expectedCount` guards a changed selection. */
export function useBulkUpdate(workspaceId: string, collectionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['BulkUpdate']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/bulk-update', {
          params: { path: { workspaceId, collectionId } },
          body,
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.items(workspaceId, collectionId) }),
  });
}

/** A fresh count for a bulk edit's confirmation (never from the cache). */
export function useBulkPreview(workspaceId: string, collectionId: string) {
  return useMutation({
    mutationFn: (definition: ViewDefinition) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/bulk-preview', {
          params: { path: { workspaceId, collectionId } },
          body: { definition },
        }),
      ),
  });
}
