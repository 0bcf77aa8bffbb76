import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components } from './schema.js';

export type ImageBuild = components['schemas']['ImageBuild'];
export type ImageBuildStep = components['schemas']['ImageBuildStep'];

const buildsKey = (orgId: string, projectId: string) => [
  'orgs',
  orgId,
  'projects',
  projectId,
  'image-builds',
];

const moving = (build: ImageBuild) => build.status === 'queued' || build.status === 'running';

/** A project's image builds, newest first; asked again every LIVE_INTERVAL while one moves. */
export const imageBuildsQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: buildsKey(orgId, projectId),
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/image-builds', {
          params: { path: { orgId, projectId } },
        }),
      ),
    refetchInterval: (query) => (query.state.data?.some(moving) ? LIVE_INTERVAL : false),
  });

/** Queues a build of the current version on every usable node; answers the queued builds. */
export function useBuildProject(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/build', {
          params: { path: { orgId, projectId } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: buildsKey(orgId, projectId) }),
  });
}
