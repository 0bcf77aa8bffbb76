import { type QueryClient, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from './client.js';
import type { components } from './schema.js';

/** The signed-in account, or null when there is no valid session. */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async () => {
    try {
      return await unwrap(api.GET('/auth/me'));
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export const registrationQuery = queryOptions({
  queryKey: ['registration'],
  queryFn: () => unwrap(api.GET('/auth/registration')),
  staleTime: 5 * 60_000,
});

type User = components['schemas']['AuthUser'];

/**
 * Another person (or nobody) is signed in: what was read for the last one
 * is dropped, and the account is set where every screen reads it. (Clearing
 * the whole cache would orphan the header's own query of the account.)
 */
function switchAccount(client: QueryClient, user: User | null): void {
  client.removeQueries({
    predicate: (query) => query.queryKey[0] !== 'me' && query.queryKey[0] !== 'registration',
  });
  client.setQueryData(meQuery.queryKey, user);
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['Login']) => unwrap(api.POST('/auth/login', { body })),
    onSuccess: (session) => switchAccount(client, session.user),
  });
}

export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['Register']) =>
      unwrap(api.POST('/auth/register', { body })),
    onSuccess: (session) => switchAccount(client, session.user),
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/auth/logout')),
    onSettled: () => switchAccount(client, null),
  });
}
