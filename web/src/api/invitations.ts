import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { workspacesQuery } from './workspaces.js';

/** What an invitation offers (public: the token is the credential); 404 alike when it is dead. */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ['invitation', token],
    queryFn: () => unwrap(api.GET('/auth/invitation', { params: { query: { token } } })),
    retry: false,
  });

/** Join as the signed-in account; the workspaces list is read again so the new one opens. */
export function useAcceptInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => unwrap(api.POST('/auth/invitation/accept', { body: { token } })),
    onSuccess: () => client.invalidateQueries({ queryKey: workspacesQuery.queryKey }),
  });
}
