import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type Status = components['schemas']['Status'];
export type StatusCategory = Status['category'];

/** The categories in the order a card moves through them. */
export const CATEGORIES: readonly StatusCategory[] = [
  'backlog',
  'unstarted',
  'started',
  'completed',
  'canceled',
];

export const statusesQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.statuses(workspaceId),
    queryFn: () =>
      unwrap(api.GET('/workspaces/{workspaceId}/statuses', { params: { path: { workspaceId } } })),
  });

export function useCreateStatus(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateStatus']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/statuses', { params: { path: { workspaceId } }, body }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.statuses(workspaceId) }),
  });
}

export function useUpdateStatus(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({
      statusId,
      ...body
    }: components['schemas']['UpdateStatus'] & { statusId: string }) =>
      unwrap(
        api.PATCH('/workspaces/{workspaceId}/statuses/{statusId}', {
          params: { path: { workspaceId, statusId } },
          body,
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.statuses(workspaceId) }),
  });
}

export function useDeleteStatus(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (statusId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/statuses/{statusId}', {
          params: { path: { workspaceId, statusId } },
        }),
      ),
    onSettled: () => client.invalidateQueries({ queryKey: keys.statuses(workspaceId) }),
  });
}

/**
 * Reorder with one PUT of every id: the list moves at once (optimistic) and
 * goes back to what it was when the server refuses.
 */
export function useReorderStatuses(workspaceId: string) {
  const client = useQueryClient();
  const queryKey = keys.statuses(workspaceId);
  return useMutation({
    mutationFn: (statusIds: string[]) =>
      unwrap(
        api.PUT('/workspaces/{workspaceId}/statuses/order', {
          params: { path: { workspaceId } },
          body: { statusIds },
        }),
      ),
    onMutate: async (statusIds) => {
      await client.cancelQueries({ queryKey });
      const previous = client.getQueryData<Status[]>(queryKey);
      if (previous !== undefined) client.setQueryData(queryKey, reordered(previous, statusIds));
      return { previous };
    },
    onError: (_error, _ids, context) => {
      if (context?.previous !== undefined) client.setQueryData(queryKey, context.previous);
    },
    onSuccess: (statuses) => client.setQueryData(queryKey, statuses),
  });
}

/** The statuses in the order of the ids, with positions renumbered (those not cited keep theirs, last). */
export function reordered(statuses: readonly Status[], statusIds: readonly string[]): Status[] {
  const byId = new Map(statuses.map((status) => [status.id, status]));
  const cited = statusIds.flatMap((id) => {
    const status = byId.get(id);
    return status === undefined ? [] : [status];
  });
  const rest = statuses.filter((status) => !statusIds.includes(status.id));
  return [...cited, ...rest].map((status, index) => ({ ...status, position: index }));
}
