import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components, paths } from './schema.js';

type SessionsPath = '/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/terminals';
/** A persistent terminal session of a worker: its name, size and attached clients. */
export type TerminalSession =
  paths[SessionsPath]['get']['responses'][200]['content']['application/json'][number];
export type CreateTerminal = components['schemas']['CreateTerminal'];

/** Names a worker's place in its project (every worker route takes all three). */
export interface WorkerRef {
  orgId: string;
  projectId: string;
  workerId: string;
}

/** One worker, asked again while shown (its state moves on its own). */
export const terminalWorkerQuery = ({ orgId, projectId, workerId }: WorkerRef) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'projects', projectId, 'workers', workerId],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}', {
          params: { path: { orgId, projectId, workerId } },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
  });

const sessionsKey = ({ orgId, projectId, workerId }: WorkerRef) =>
  ['orgs', orgId, 'projects', projectId, 'workers', workerId, 'terminals'] as const;

/** The worker's terminal sessions (others may create or end some: asked again while shown). */
export const terminalSessionsQuery = (worker: WorkerRef) =>
  queryOptions({
    queryKey: sessionsKey(worker),
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/terminals', {
          params: { path: worker },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
  });

export function useCreateTerminal(worker: WorkerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTerminal) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/terminals', {
          params: { path: worker },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsKey(worker) }),
  });
}

export function useKillTerminal(worker: WorkerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.DELETE('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/terminals/{name}', {
          params: { path: { ...worker, name } },
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: sessionsKey(worker) }),
  });
}

/** Lists the worker's sessions again now (one ended, or was created by attaching). */
export function useRefreshSessions(worker: WorkerRef) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: sessionsKey(worker) });
}

/** One service of a deployment, asked again while shown (its state moves on its own). */
export const shellServiceQuery = (orgId: string, deploymentId: string, serviceId: string) =>
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
