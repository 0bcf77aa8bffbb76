import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { components } from './schema.js';

export type Project = components['schemas']['Project'];
export type CreateProject = components['schemas']['CreateProject'];
export type UpdateProject = components['schemas']['UpdateProject'];
export type ProjectConfig = components['schemas']['ProjectConfig'];
export type ProjectVersion = components['schemas']['ProjectVersion'];

const projectsKey = (orgId: string) => ['orgs', orgId, 'projects'];
const projectKey = (orgId: string, projectId: string) => [...projectsKey(orgId), projectId];

export const projectsQuery = (orgId: string) =>
  queryOptions({
    queryKey: projectsKey(orgId),
    queryFn: () => unwrap(api.GET('/api/orgs/{orgId}/projects', { params: { path: { orgId } } })),
  });

export const projectQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: [...projectKey(orgId, projectId), 'detail'],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}', {
          params: { path: { orgId, projectId } },
        }),
      ),
  });

/** The configuration versions, newest first (one page of 50: older ones are rarely wanted). */
export const versionsQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: [...projectKey(orgId, projectId), 'versions'],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/versions', {
          params: { path: { orgId, projectId }, query: { limit: 50 } },
        }),
      ),
  });

export function useCreateProject(orgId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateProject) =>
      unwrap(api.POST('/api/orgs/{orgId}/projects', { params: { path: { orgId } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: projectsKey(orgId) }),
  });
}

/** The project as the API answered it, into the cache; its versions and the list asked again. */
function useStoreProject(orgId: string, projectId: string) {
  const client = useQueryClient();
  return (project: Project) => {
    client.setQueryData(projectQuery(orgId, projectId).queryKey, project);
    void client.invalidateQueries({ queryKey: projectKey(orgId, projectId) });
    void client.invalidateQueries({ queryKey: projectsKey(orgId), exact: true });
  };
}

export function useUpdateProject(orgId: string, projectId: string) {
  const store = useStoreProject(orgId, projectId);
  return useMutation({
    mutationFn: (body: UpdateProject) =>
      unwrap(
        api.PATCH('/api/orgs/{orgId}/projects/{projectId}', {
          params: { path: { orgId, projectId } },
          body,
        }),
      ),
    onSuccess: store,
  });
}

export function useRestoreVersion(orgId: string, projectId: string) {
  const store = useStoreProject(orgId, projectId);
  return useMutation({
    mutationFn: (version: number) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/versions/{version}/restore', {
          params: { path: { orgId, projectId, version } },
        }),
      ),
    onSuccess: store,
  });
}

export function useDeleteProject(orgId: string, projectId: string) {
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/projects/{projectId}', {
          params: { path: { orgId, projectId } },
        }),
      ),
  });
}

/** Creates or replaces a secret by name (its value is sent once and never read back). */
export function useSetSecret(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; value: string }) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/secrets', {
          params: { path: { orgId, projectId } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: projectKey(orgId, projectId) }),
  });
}

export function useDeleteSecret(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (secretId: string) =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/projects/{projectId}/secrets/{secretId}', {
          params: { path: { orgId, projectId, secretId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: projectKey(orgId, projectId) }),
  });
}
