import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';
import { workspacesQuery } from './workspaces.js';

export type WorkspaceOverview = components['schemas']['WorkspaceOverview'];
export type UpdateWorkspace = components['schemas']['UpdateWorkspace'];

/** Cards per status category and per list, the 14 days of activity, the catalog size. */
export const overviewQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.overview(workspaceId),
    queryFn: () =>
      unwrap(api.GET('/workspaces/{workspaceId}/overview', { params: { path: { workspaceId } } })),
  });

/** Rename the workspace or change its cover layout; the list of workspaces takes the answer. */
export function useUpdateWorkspace(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateWorkspace) =>
      unwrap(api.PATCH('/workspaces/{workspaceId}', { params: { path: { workspaceId } }, body })),
    onSuccess: (workspace) => {
      client.setQueryData(workspacesQuery.queryKey, (list) =>
        list?.map((candidate) => (candidate.id === workspace.id ? workspace : candidate)),
      );
    },
  });
}

/**
 * Delete the workspace (the slug confirms it). The screen leaves the
 * workspace first, then calls forgetWorkspace: dropping it from the list
 * while its screens are mounted would pull the ground from under them.
 */
export function useDeleteWorkspace(workspaceId: string) {
  return useMutation({
    mutationFn: (slug: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}', {
          params: { path: { workspaceId } },
          body: { slug },
        }),
      ),
  });
}

/** Drops a workspace the person no longer belongs to (deleted, or left) from the cache. */
export function forgetWorkspace(client: QueryClient, workspaceId: string): void {
  client.setQueryData(workspacesQuery.queryKey, (list) =>
    list?.filter((candidate) => candidate.id !== workspaceId),
  );
  client.removeQueries({ queryKey: keys.workspace(workspaceId) });
}
