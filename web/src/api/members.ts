import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type Member = components['schemas']['Member'];
export type Role = Member['role'];
export type Invitation = components['schemas']['Invitation'];
export type CreatedInvitation = components['schemas']['CreatedInvitation'];

export const ROLES: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];

export const membersQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.members(workspaceId),
    queryFn: () =>
      unwrap(api.GET('/workspaces/{workspaceId}/members', { params: { path: { workspaceId } } })),
  });

/** Invitations in every state, newest first (admins only). */
export const invitationsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.invitations(workspaceId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/invitations', { params: { path: { workspaceId } } }),
      ),
  });

/**
 * Attach an existing account with a role, or change a member's role: the
 * API has one route for both (POST .../members with the e-mail).
 */
export function useSetMemberRole(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['InviteMember']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/members', { params: { path: { workspaceId } }, body }),
      ),
    onSettled: () => {
      // One's own role may have changed: the workspace list carries it.
      void client.invalidateQueries({ queryKey: keys.workspaces });
      return client.invalidateQueries({ queryKey: keys.members(workspaceId) });
    },
  });
}

/** Remove a member, or (one's own id) leave the workspace. */
export function useRemoveMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/members/{userId}', {
          params: { path: { workspaceId, userId } },
        }),
      ),
    onSuccess: (_answer, userId) =>
      client.setQueryData(membersQuery(workspaceId).queryKey, (members) =>
        members?.filter((member) => member.userId !== userId),
      ),
  });
}

export function useCreateInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateInvitation']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/invitations', {
          params: { path: { workspaceId } },
          body,
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.invitations(workspaceId) }),
  });
}

export function useRevokeInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/invitations/{invitationId}', {
          params: { path: { workspaceId, invitationId } },
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.invitations(workspaceId) }),
  });
}
