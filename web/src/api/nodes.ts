import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components } from './schema.js';

export type Node = components['schemas']['Node'];
export type NodeWithToken = components['schemas']['NodeWithToken'];
export type NodeContainer = components['schemas']['NodeInventory']['containers'][number];

/** The organization's nodes and the shared ones, with their online state (asked again while shown). */
export const nodesQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'nodes'],
    queryFn: () => unwrap(api.GET('/api/orgs/{orgId}/nodes', { params: { path: { orgId } } })),
    refetchInterval: LIVE_INTERVAL,
  });

export const nodeQuery = (orgId: string, nodeId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'nodes', nodeId],
    queryFn: () =>
      unwrap(api.GET('/api/orgs/{orgId}/nodes/{nodeId}', { params: { path: { orgId, nodeId } } })),
    refetchInterval: LIVE_INTERVAL,
  });

/** The containers the node's agent reports now (503 `node_offline` without an agent). */
export const nodeInventoryQuery = (orgId: string, nodeId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'nodes', nodeId, 'inventory'],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/nodes/{nodeId}/inventory', {
          params: { path: { orgId, nodeId } },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
    retry: false,
  });

function useRefreshNodes(orgId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: nodesQuery(orgId).queryKey });
}

/** Registers a node; the answer carries its token and agent command, shown this once. */
export function useRegisterNode(orgId: string) {
  const refresh = useRefreshNodes(orgId);
  return useMutation({
    mutationFn: (body: components['schemas']['RegisterNode']) =>
      unwrap(api.POST('/api/orgs/{orgId}/nodes', { params: { path: { orgId } }, body })),
    onSettled: refresh,
  });
}

/** A new token, shown once; the old one stops working at once. */
export function useRotateNodeToken(orgId: string) {
  const refresh = useRefreshNodes(orgId);
  return useMutation({
    mutationFn: (nodeId: string) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/nodes/{nodeId}/token', {
          params: { path: { orgId, nodeId } },
        }),
      ),
    onSettled: refresh,
  });
}

export function useDrainNode(orgId: string) {
  const refresh = useRefreshNodes(orgId);
  return useMutation({
    mutationFn: ({ nodeId, draining }: { nodeId: string; draining: boolean }) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/nodes/{nodeId}/drain', {
          params: { path: { orgId, nodeId } },
          body: { draining },
        }),
      ),
    onSettled: refresh,
  });
}

export function useDeleteNode(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (nodeId: string) =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/nodes/{nodeId}', { params: { path: { orgId, nodeId } } }),
      ),
    onSuccess: (_answer, nodeId) => {
      client.setQueryData(nodesQuery(orgId).queryKey, (nodes) =>
        nodes?.filter((node) => node.id !== nodeId),
      );
      client.removeQueries({ queryKey: nodeQuery(orgId, nodeId).queryKey });
    },
  });
}
