import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components } from './schema.js';

export type Worker = components['schemas']['Worker'];
export type WorkerState = Worker['state'];
export type SpawnWorker = components['schemas']['SpawnWorker'];
export type WorkerPorts = components['schemas']['WorkerPorts'];
export type WorkerSshToken = components['schemas']['WorkerSshToken'];

/** Which worker a call is about. */
export interface WorkerRef {
  orgId: string;
  projectId: string;
  workerId: string;
}

const workersKey = (orgId: string, projectId: string) =>
  ['orgs', orgId, 'projects', projectId, 'workers'] as const;
const workerKey = ({ orgId, projectId, workerId }: WorkerRef) =>
  [...workersKey(orgId, projectId), workerId] as const;
const path = (ref: WorkerRef) => ({ params: { path: ref } });

/** A project's workers; asked again every LIVE_INTERVAL while shown (their states move on their own). */
export const workersQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: workersKey(orgId, projectId),
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/workers', {
          params: { path: { orgId, projectId } },
        }),
      ),
    refetchInterval: LIVE_INTERVAL,
  });

/** One worker, its state asked again every LIVE_INTERVAL while shown. */
export const workerQuery = (ref: WorkerRef) =>
  queryOptions({
    queryKey: workerKey(ref),
    queryFn: () =>
      unwrap(api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}', path(ref))),
    refetchInterval: LIVE_INTERVAL,
  });

/** Spawns a worker (answered at once, `creating`); the project's list is asked again. */
export function useSpawnWorker(orgId: string, projectId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SpawnWorker) =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/workers', {
          params: { path: { orgId, projectId } },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: workersKey(orgId, projectId) }),
  });
}

/** Which moves a state allows (the API answers 409 `worker_state_conflict` to the others). */
export function movesOf(worker: Worker): { start: boolean; stop: boolean; delete: boolean } {
  const hasContainer = worker.containerId !== null;
  return {
    start: worker.state === 'stopped' || (worker.state === 'failed' && hasContainer),
    stop: worker.state === 'ready' || (worker.state === 'failed' && hasContainer),
    delete: worker.state !== 'deleting',
  };
}

/** Starts or stops a worker; the answer (`starting`, `stopping`) replaces the cached one. */
export function useWorkerMove(ref: WorkerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (move: 'start' | 'stop') =>
      unwrap(
        move === 'start'
          ? api.POST('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/start', path(ref))
          : api.POST('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/stop', path(ref)),
      ),
    onSuccess: (worker) => {
      client.setQueryData(workerKey(ref), worker);
      void client.invalidateQueries({ queryKey: workersKey(ref.orgId, ref.projectId) });
    },
  });
}

/** Deletes a worker (it goes `deleting`, then away). */
export function useDeleteWorker(ref: WorkerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}', path(ref))),
    onSuccess: () => client.invalidateQueries({ queryKey: workersKey(ref.orgId, ref.projectId) }),
  });
}

/** The refusal in a text answer (the logs route answers text/plain, its refusals JSON). */
function refusalFromText(status: number, text: unknown): ApiError {
  try {
    const body: unknown = typeof text === 'string' ? JSON.parse(text) : text;
    if (typeof body === 'object' && body !== null && 'error' in body) {
      const error = body.error;
      if (typeof error === 'object' && error !== null && 'code' in error && 'message' in error) {
        return new ApiError(status, error as ConstructorParameters<typeof ApiError>[1]);
      }
    }
  } catch {
    // Not JSON: the status alone says it.
  }
  return new ApiError(status, undefined);
}

/** The last `tail` lines of the container's output, as text. */
export const workerLogsQuery = (ref: WorkerRef, tail: number) =>
  queryOptions({
    queryKey: [...workerKey(ref), 'logs', tail],
    queryFn: async () => {
      const { data, error, response } = await api.GET(
        '/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/logs',
        { params: { path: ref, query: { tail } }, parseAs: 'text' },
      );
      if (!response.ok) throw refusalFromText(response.status, error);
      return data ?? '';
    },
  });

/** CPU and memory now (a fresh sample at every call). */
export const workerStatsQuery = (ref: WorkerRef, enabled: boolean) =>
  queryOptions({
    queryKey: [...workerKey(ref), 'stats'],
    queryFn: () =>
      unwrap(api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/stats', path(ref))),
    refetchInterval: LIVE_INTERVAL,
    enabled,
  });

/** Each repository's branch, ahead/behind and changed files. */
export const workerGitStatusQuery = (ref: WorkerRef, enabled: boolean) =>
  queryOptions({
    queryKey: [...workerKey(ref), 'git-status'],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/git-status', path(ref)),
      ),
    enabled,
  });

/** The ports listened on now and the forwarded ones with their URLs (asked again while shown). */
export const workerPortsQuery = (ref: WorkerRef, enabled: boolean) =>
  queryOptions({
    queryKey: [...workerKey(ref), 'ports'],
    queryFn: () =>
      unwrap(api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/ports', path(ref))),
    refetchInterval: LIVE_INTERVAL * 2,
    enabled,
  });

/** A short-lived token for the worker's terminal endpoint, answered this once. */
export function useSshToken(ref: WorkerRef) {
  return useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/ssh-token', path(ref)),
      ),
  });
}
