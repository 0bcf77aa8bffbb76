import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

export type Collection = components['schemas']['Collection'];
export type CollectionView = components['schemas']['CollectionView'];
export type ViewDefinition = components['schemas']['ViewDefinition'];
export type ViewDisplay = components['schemas']['ViewDisplay'];

/** The workspace's lists, in sidebar order. */
export const collectionsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.collections(workspaceId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/collections', { params: { path: { workspaceId } } }),
      ),
  });

/** A list's saved views, in tab order. */
export const viewsQuery = (workspaceId: string, collectionId: string) =>
  queryOptions({
    queryKey: keys.views(workspaceId, collectionId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/collections/{collectionId}/views', {
          params: { path: { workspaceId, collectionId } },
        }),
      ),
  });

export type CollectionGroup = components['schemas']['CollectionGroup'];
export type ReorderCollections = components['schemas']['ReorderCollections'];

/** The sidebar's groups of lists, in order. */
export const groupsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: keys.groups(workspaceId),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/collection-groups', {
          params: { path: { workspaceId } },
        }),
      ),
  });

/**
 * Moves lists in the sidebar with one `PUT .../collections/order`, shown at
 * once and put back as it was when the server refuses.
 */
export function useReorderCollections(workspaceId: string) {
  const client = useQueryClient();
  const key = keys.collections(workspaceId);
  return useMutation({
    mutationFn: (body: ReorderCollections) =>
      unwrap(
        api.PUT('/workspaces/{workspaceId}/collections/order', {
          params: { path: { workspaceId } },
          body,
        }),
      ),
    onMutate: async (body) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<Collection[]>(key);
      if (previous !== undefined) {
        const moved = new Map(
          body.collections.map((entry, index) => [entry.id, { ...entry, index }]),
        );
        const next = previous
          .map((collection) => {
            const entry = moved.get(collection.id);
            return entry === undefined
              ? collection
              : { ...collection, groupId: entry.groupId, position: entry.index };
          })
          .sort((a, b) => a.position - b.position);
        client.setQueryData(key, next);
      }
      return { previous };
    },
    onError: (_error, _body, context) => {
      if (context?.previous !== undefined) client.setQueryData(key, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useCreateCollection(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateCollection']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections', {
          params: { path: { workspaceId } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.collections(workspaceId) }),
  });
}

export function useUpdateCollection(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: components['schemas']['UpdateCollection'] & { id: string }) =>
      unwrap(
        api.PATCH('/workspaces/{workspaceId}/collections/{collectionId}', {
          params: { path: { workspaceId, collectionId: id } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.collections(workspaceId) }),
  });
}

export function useDeleteCollection(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (collectionId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/collections/{collectionId}', {
          params: { path: { workspaceId, collectionId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.collections(workspaceId) }),
  });
}

export function useCreateGroup(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateCollectionGroup']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collection-groups', {
          params: { path: { workspaceId } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.groups(workspaceId) }),
  });
}

export function useRenameGroup(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      unwrap(
        api.PATCH('/workspaces/{workspaceId}/collection-groups/{groupId}', {
          params: { path: { workspaceId, groupId: id } },
          body: { name },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.groups(workspaceId) }),
  });
}

export function useDeleteGroup(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (groupId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/collection-groups/{groupId}', {
          params: { path: { workspaceId, groupId } },
        }),
      ),
    // Its lists stay, ungrouped: both change.
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.groups(workspaceId) }),
        client.invalidateQueries({ queryKey: keys.collections(workspaceId) }),
      ]),
  });
}

type ViewPath = { workspaceId: string; collectionId: string };

export function useCreateView({ workspaceId, collectionId }: ViewPath) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateCollectionView']) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/views', {
          params: { path: { workspaceId, collectionId } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.views(workspaceId, collectionId) }),
  });
}

export function useUpdateView({ workspaceId, collectionId }: ViewPath) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: components['schemas']['UpdateCollectionView'] & { id: string }) =>
      unwrap(
        api.PATCH('/workspaces/{workspaceId}/collections/{collectionId}/views/{viewId}', {
          params: { path: { workspaceId, collectionId, viewId: id } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.views(workspaceId, collectionId) }),
  });
}

export function useDeleteView({ workspaceId, collectionId }: ViewPath) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (viewId: string) =>
      unwrap(
        api.DELETE('/workspaces/{workspaceId}/collections/{collectionId}/views/{viewId}', {
          params: { path: { workspaceId, collectionId, viewId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.views(workspaceId, collectionId) }),
  });
}
