import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret'];
export type CreateWebhookEndpoint = components['schemas']['CreateWebhookEndpoint'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryAttempt = components['schemas']['WebhookDeliveryAttempt'];

export const webhooksQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.webhooks(workspaceId),
    queryFn: () =>
      unwrap(api.GET('/workspaces/{workspaceId}/webhooks', { params: { path: { workspaceId } } })),
  });

export const webhookQuery = (workspaceId: string, endpointId: string) =>
  queryOptions({
    queryKey: keys.webhook(workspaceId, endpointId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/webhooks/{endpointId}', {
          params: { path: { workspaceId, endpointId } },
        }),
      ),
  });

const DELIVERIES_PAGE = 25;

/** An endpoint's deliveries, newest first, paged with `before`. */
export const deliveriesQuery = (workspaceId: string, endpointId: string) =>
  infiniteQueryOptions({
    queryKey: keys.deliveries(workspaceId, endpointId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/webhooks/{endpointId}/deliveries', {
          params: {
            path: { workspaceId, endpointId },
            query: {
              limit: DELIVERIES_PAGE,
              ...(pageParam === undefined ? {} : { before: pageParam }),
            },
          },
        }),
      ),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

export function useCreateWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateWebhookEndpoint) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/webhooks', { params: { path: { workspaceId } }, body }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.webhooks(workspaceId) }),
  });
}

type EndpointAction = 'pause' | 'resume' | 'rotate-secret';

/** Pause, resume or rotate the secret: each answers the endpoint (rotate: with its new secret). */
export function useEndpointAction(workspaceId: string, endpointId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (action: EndpointAction): Promise<WebhookEndpoint & { secret?: string }> => {
      const params = { params: { path: { workspaceId, endpointId } } };
      if (action === 'pause') {
        return unwrap(api.POST('/workspaces/{workspaceId}/webhooks/{endpointId}/pause', params));
      }
      if (action === 'resume') {
        return unwrap(api.POST('/workspaces/{workspaceId}/webhooks/{endpointId}/resume', params));
      }
      return unwrap(
        api.POST('/workspaces/{workspaceId}/webhooks/{endpointId}/rotate-secret', params),
      );
    },
    onSuccess: (endpoint) => {
      const { secret: _shownOnce, ...stored } = endpoint;
      client.setQueryData(keys.webhook(workspaceId, endpointId), stored);
      void client.invalidateQueries({ queryKey: keys.webhooks(workspaceId), exact: true });
    },
  });
}

export function useDeleteWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/webhooks/{endpointId}', {
          params: { path: { workspaceId, endpointId } },
        }),
      ),
    onSuccess: (_answer, endpointId) => {
      client.removeQueries({ queryKey: keys.webhook(workspaceId, endpointId) });
      void client.invalidateQueries({ queryKey: keys.webhooks(workspaceId), exact: true });
    },
  });
}

/** Replays a delivery: it is pending again and due at once (the list then follows it). */
export function useReplayDelivery(workspaceId: string, endpointId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/webhooks/{endpointId}/deliveries/{deliveryId}/replay', {
          params: { path: { workspaceId, endpointId, deliveryId } },
        }),
      ),
    onSuccess: () =>
      client.invalidateQueries({ queryKey: keys.deliveries(workspaceId, endpointId) }),
  });
}
