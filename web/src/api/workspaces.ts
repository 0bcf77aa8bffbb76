import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { components } from './schema.js';

export const workspacesQuery = queryOptions({
  queryKey: ['workspaces'],
  queryFn: () => unwrap(api.GET('/workspaces')),
});

export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateWorkspace']) =>
      unwrap(api.POST('/workspaces', { body })),
    onSuccess: (workspace) => {
      client.setQueryData(workspacesQuery.queryKey, (list) => [...(list ?? []), workspace]);
    },
  });
}
