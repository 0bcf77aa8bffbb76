import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type WorkspaceApiKey = components['schemas']['WorkspaceApiKey'];
export type CreateWorkspaceApiKey = components['schemas']['CreateWorkspaceApiKey'];

/** The workspace's API keys, revoked ones included (the API keeps them, dated). */
export const apiKeysQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.apiKeys(workspaceId),
    queryFn: () =>
      unwrap(api.GET('/workspaces/{workspaceId}/api-keys', { params: { path: { workspaceId } } })),
  });

/** Creates a key; its answer carries the token, the only time it is ever shown. */
export function useCreateApiKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWorkspaceApiKey) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/api-keys', { params: { path: { workspaceId } }, body }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.apiKeys(workspaceId) }),
  });
}

export function useRevokeApiKey(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/api-keys/{keyId}', {
          params: { path: { workspaceId, keyId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.apiKeys(workspaceId) }),
  });
}
