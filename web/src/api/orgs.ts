import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { components } from './schema.js';

export type Organization = components['schemas']['Organization'];

/** How often a platform screen asks again for states that change on their own (no event stream). */
export const LIVE_INTERVAL = 2_000;

export const orgsQuery = queryOptions({
  queryKey: ['orgs'],
  queryFn: () => unwrap(api.GET('/api/orgs')),
});

export function useCreateOrg() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateOrganization']) =>
      unwrap(api.POST('/api/orgs', { body })),
    onSuccess: (org) => {
      client.setQueryData(orgsQuery.queryKey, (list) => [...(list ?? []), org]);
    },
  });
}

export const orgMembersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'members'],
    queryFn: () => unwrap(api.GET('/api/orgs/{orgId}/members', { params: { path: { orgId } } })),
  });
