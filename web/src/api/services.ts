import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import type { UpdateService } from './deployments.js';
import type { components } from './schema.js';

export type DeployRequest = components['schemas']['DeployRequest'];

interface ServicePath {
  orgId: string;
  deploymentId: string;
  serviceId: string;
}

function useRefresh(orgId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['orgs', orgId] });
}

export function useUpdateService(path: ServicePath) {
  const refresh = useRefresh(path.orgId);
  return useMutation({
    mutationFn: (body: UpdateService) =>
      unwrap(
        api.PATCH('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}', {
          params: { path },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}

export function useDeleteService(path: ServicePath) {
  const refresh = useRefresh(path.orgId);
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}', {
          params: { path },
        }),
      ),
    onSuccess: refresh,
  });
}

/** Deploy as configured now (`{}`), or an earlier run's image again (`{runId}`). */
export function useDeployService(path: ServicePath) {
  const refresh = useRefresh(path.orgId);
  return useMutation({
    mutationFn: (body: DeployRequest) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/deploy', {
          params: { path },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}

export function useServiceMove(path: ServicePath) {
  const refresh = useRefresh(path.orgId);
  return useMutation({
    mutationFn: (move: 'start' | 'stop') =>
      move === 'start'
        ? unwrap(
            api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/start', {
              params: { path },
            }),
          )
        : unwrap(
            api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/stop', {
              params: { path },
            }),
          ),
    onSuccess: refresh,
  });
}

export function useVerifyDomain(path: ServicePath) {
  const refresh = useRefresh(path.orgId);
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST(
          '/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/verify-domain',
          { params: { path } },
        ),
      ),
    onSuccess: refresh,
  });
}

export function useRunCronJob(path: ServicePath) {
  const refresh = useRefresh(path.orgId);
  return useMutation({
    mutationFn: (jobName: string) =>
      unwrap(
        api.POST(
          '/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/cron-jobs/{jobName}/run',
          { params: { path: { ...path, jobName } } },
        ),
      ),
    onSuccess: refresh,
  });
}

/** The last lines of each live replica, as text. */
export async function serviceLogTail(path: ServicePath, tail: number): Promise<string> {
  const { orgId, deploymentId, serviceId } = path;
  const response = await fetch(
    `/api/orgs/${orgId}/deployments/${deploymentId}/services/${serviceId}/logs?tail=${tail}`,
    { credentials: 'same-origin' },
  );
  if (!response.ok) throw new Error(`The logs could not be read (${response.status})`);
  return response.text();
}
