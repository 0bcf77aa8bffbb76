import { queryOptions } from '@tanstack/react-query';
import { ApiError, api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components } from './schema.js';
import type { Worker } from './workers.js';

export type SpawnWorker = components['schemas']['SpawnWorker'];

/**
 * One worker a card links to, asked again while shown; null once it is gone
 * (404: deleted, or its organization no longer lets the person see it).
 * Keyed apart from the dashboard's worker queries, whose data is never null.
 */
export const linkedWorkerQuery = (orgId: string, projectId: string, workerId: string) =>
  queryOptions({
    queryKey: ['card-workers', orgId, projectId, workerId],
    queryFn: async (): Promise<Worker | null> => {
      try {
        return await unwrap(
          api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}', {
            params: { path: { orgId, projectId, workerId } },
          }),
        );
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 404) return null;
        throw failure;
      }
    },
    refetchInterval: (query) => (query.state.data === null ? false : LIVE_INTERVAL),
  });

/** Spawns a worker of the project (placed automatically unless a node is named); answers at once. */
export function spawnWorker(orgId: string, projectId: string, body: SpawnWorker) {
  return unwrap(
    api.POST('/api/orgs/{orgId}/projects/{projectId}/workers', {
      params: { path: { orgId, projectId } },
      body,
    }),
  );
}
