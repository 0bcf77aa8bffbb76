import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { orgMembersQuery, orgsQuery } from './orgs.js';
import type { components } from './schema.js';

export type OrgMember = components['schemas']['OrgMember'];
export type OrgRole = OrgMember['role'];

export const ORG_ROLES: readonly OrgRole[] = ['member', 'admin', 'owner'];

function useRefreshMembers(orgId: string) {
  const client = useQueryClient();
  return () => {
    // One's own role may have changed: the organization list carries it.
    void client.invalidateQueries({ queryKey: orgsQuery.queryKey });
    return client.invalidateQueries({ queryKey: orgMembersQuery(orgId).queryKey });
  };
}

/** Adds an existing account, by its e-mail, with a role. */
export function useAddOrgMember(orgId: string) {
  const refresh = useRefreshMembers(orgId);
  return useMutation({
    mutationFn: (body: components['schemas']['AddMember']) =>
      unwrap(api.POST('/api/orgs/{orgId}/members', { params: { path: { orgId } }, body })),
    onSettled: refresh,
  });
}

export function useChangeOrgMemberRole(orgId: string) {
  const refresh = useRefreshMembers(orgId);
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: OrgRole }) =>
      unwrap(
        api.PATCH('/api/orgs/{orgId}/members/{userId}', {
          params: { path: { orgId, userId } },
          body: { role },
        }),
      ),
    onSettled: refresh,
  });
}

export function useRemoveOrgMember(orgId: string) {
  const refresh = useRefreshMembers(orgId);
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/members/{userId}', { params: { path: { orgId, userId } } }),
      ),
    onSettled: refresh,
  });
}
