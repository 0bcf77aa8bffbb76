import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type AppInstallation = components['schemas']['AppInstallation'];

/** The apps installed in the workspace (revoked ones keep their date). */
export const appInstallationsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.appInstallations(workspaceId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/app-installations', {
          params: { path: { workspaceId } },
        }),
      ),
  });

export function useRevokeInstallation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (installationId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/app-installations/{installationId}', {
          params: { path: { workspaceId, installationId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.appInstallations(workspaceId) }),
  });
}

/** Every app scope with its meaning in words (public, the same for every workspace). */
export const appScopesQuery = queryOptions({
  queryKey: ['app-scopes'],
  queryFn: () => unwrap(api.GET('/apps/scopes')),
  staleTime: Number.POSITIVE_INFINITY,
});
