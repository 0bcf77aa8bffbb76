import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { components } from './schema.js';

export type PlatformApiKey = components['schemas']['ApiKey'];
export type CreatePlatformApiKey = components['schemas']['CreateApiKey'];
export type KeyScope = CreatePlatformApiKey['scopes'][number];
export type KeyOwnerType = CreatePlatformApiKey['ownerType'];

/** The organization's API keys, newest first, revoked ones included. */
export const platformKeysQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'api-keys'],
    queryFn: () => unwrap(api.GET('/api/orgs/{orgId}/api-keys', { params: { path: { orgId } } })),
  });

/** Creates a key; its answer carries the token, the only time it is ever shown. */
export function useCreatePlatformKey(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePlatformApiKey) =>
      unwrap(api.POST('/api/orgs/{orgId}/api-keys', { params: { path: { orgId } }, body })),
    onSettled: () => client.invalidateQueries({ queryKey: platformKeysQuery(orgId).queryKey }),
  });
}

export function useRevokePlatformKey(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/api-keys/{keyId}', { params: { path: { orgId, keyId } } }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: platformKeysQuery(orgId).queryKey }),
  });
}
