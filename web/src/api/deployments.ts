import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components } from './schema.js';

export type Deployment = components['schemas']['Deployment'];
export type Service = components['schemas']['Service'];
export type CreateDeployment = components['schemas']['CreateDeployment'];
export type UpdateDeployment = components['schemas']['UpdateDeployment'];
export type CreateService = components['schemas']['CreateService'];
export type UpdateService = components['schemas']['UpdateService'];
export type SecretChange = components['schemas']['SecretChange'];

/** The organization's deployments, with states summed up from their services (asked again while shown). */
export const deploymentsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'deployments'],
    queryFn: () =>
      unwrap(api.GET('/api/orgs/{orgId}/deployments', { params: { path: { orgId } } })),
    refetchInterval: LIVE_INTERVAL,
  });

/** Every service of the organization, across its deployments (asked again while shown). */
export const orgServicesQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'services'],
    queryFn: () => unwrap(api.GET('/api/orgs/{orgId}/services', { params: { path: { orgId } } })),
    refetchInterval: LIVE_INTERVAL,
  });

export const deploymentQuery = (orgId: string, deploymentId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'deployments', deploymentId],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/deployments/{deploymentId}', {
          params: { path: { orgId, deploymentId } },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
  });

export const servicesQuery = (orgId: string, deploymentId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'deployments', deploymentId, 'services'],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/deployments/{deploymentId}/services', {
          params: { path: { orgId, deploymentId } },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
  });

export const serviceQuery = (orgId: string, deploymentId: string, serviceId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'deployments', deploymentId, 'services', serviceId],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}', {
          params: { path: { orgId, deploymentId, serviceId } },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
  });

/** After any change of a deployment or its services: every list of them is asked again. */
function useRefresh(orgId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['orgs', orgId] });
}

export function useCreateDeployment(orgId: string) {
  const refresh = useRefresh(orgId);
  return useMutation({
    mutationFn: (body: CreateDeployment) =>
      unwrap(api.POST('/api/orgs/{orgId}/deployments', { params: { path: { orgId } }, body })),
    onSuccess: refresh,
  });
}

export function useUpdateDeployment(orgId: string, deploymentId: string) {
  const refresh = useRefresh(orgId);
  return useMutation({
    mutationFn: (body: UpdateDeployment) =>
      unwrap(
        api.PATCH('/api/orgs/{orgId}/deployments/{deploymentId}', {
          params: { path: { orgId, deploymentId } },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}

export function useDeleteDeployment(orgId: string, deploymentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/deployments/{deploymentId}', {
          params: { path: { orgId, deploymentId } },
        }),
      ),
    onSuccess: () => {
      client.removeQueries({ queryKey: ['orgs', orgId, 'deployments', deploymentId] });
      return client.invalidateQueries({ queryKey: ['orgs', orgId, 'deployments'] });
    },
  });
}

export type DeploymentMove = 'start' | 'stop' | 'deploy';

/** Start, stop or deploy every service of a deployment. */
export function useDeploymentMove(orgId: string, deploymentId: string) {
  const refresh = useRefresh(orgId);
  return useMutation({
    mutationFn: (move: DeploymentMove) => {
      const params = { params: { path: { orgId, deploymentId } } };
      if (move === 'start') {
        return unwrap(api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/start', params));
      }
      if (move === 'stop') {
        return unwrap(api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/stop', params));
      }
      return unwrap(api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/deploy', params));
    },
    onSuccess: refresh,
  });
}

export function useCreateService(orgId: string, deploymentId: string) {
  const refresh = useRefresh(orgId);
  return useMutation({
    mutationFn: (body: CreateService) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/deployments/{deploymentId}/services', {
          params: { path: { orgId, deploymentId } },
          body,
        }),
      ),
    onSuccess: refresh,
  });
}
