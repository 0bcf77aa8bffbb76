import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { components } from './schema.js';

export type UserMe = components['schemas']['UserMe'];
export type UserSecret = components['schemas']['SecretInfo'];

/** The signed-in account with its platform settings. */
export const userMeQuery = queryOptions({
  queryKey: ['users', 'me'],
  queryFn: () => unwrap(api.GET('/api/users/me')),
});

/** The person's secrets: names only, values are never returned. */
export const userSecretsQuery = queryOptions({
  queryKey: ['users', 'me', 'secrets'],
  queryFn: () => unwrap(api.GET('/api/users/me/secrets')),
});

/** Changes only the fields sent; an empty `dotfilesRepo` clears it. */
export function useUpdateMe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['UpdateMe']) =>
      unwrap(api.PATCH('/api/users/me', { body })),
    onSuccess: (me) => client.setQueryData(userMeQuery.queryKey, me),
  });
}

/** Creates the secret, or replaces the value of the one with this name. */
export function useSetUserSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['SetSecret']) =>
      unwrap(api.POST('/api/users/me/secrets', { body })),
    onSettled: () => client.invalidateQueries({ queryKey: userSecretsQuery.queryKey }),
  });
}

export function useDeleteUserSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (secretId: string) =>
      unwrap(api.DELETE('/api/users/me/secrets/{secretId}', { params: { path: { secretId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: userSecretsQuery.queryKey }),
  });
}
