import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
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

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['Login']) => unwrap(api.POST('/auth/login', { body })),
    onSuccess: (session) => {
      client.clear();
      client.setQueryData(meQuery.queryKey, session.user);
    },
  });
}

export function useRegister() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['Register']) =>
      unwrap(api.POST('/auth/register', { body })),
    onSuccess: (session) => {
      client.clear();
      client.setQueryData(meQuery.queryKey, session.user);
    },
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.POST('/auth/logout')),
    onSettled: () => {
      client.clear();
      client.setQueryData(meQuery.queryKey, null);
    },
  });
}
