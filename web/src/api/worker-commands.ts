import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { paths } from './schema.js';
import type { WorkerRef } from './workers.js';

type Exec = paths['/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/exec']['post'];
export type ExecBody = Exec['requestBody']['content']['application/json'];
/** A command waited for: its exit code and output. */
export type ExecResult = Exec['responses'][200]['content']['application/json'];
/** A command started in the background. */
export type CommandInfo = Exec['responses'][202]['content']['application/json'];
export type CommandOutput =
  paths['/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/commands/{commandId}']['get']['responses'][200]['content']['application/json'];

const commandsKey = ({ orgId, projectId, workerId }: WorkerRef) =>
  ['orgs', orgId, 'projects', projectId, 'workers', workerId, 'commands'] as const;

/** The worker's background commands, asked again while one runs. */
export const workerCommandsQuery = (ref: WorkerRef, enabled: boolean) =>
  queryOptions({
    queryKey: commandsKey(ref),
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/commands', {
          params: { path: ref },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.some((command) => command.state === 'running') ? LIVE_INTERVAL : false,
    enabled,
  });

/** One background command with its output so far, asked again while it runs. */
export const workerCommandQuery = (ref: WorkerRef, commandId: string) =>
  queryOptions({
    queryKey: [...commandsKey(ref), commandId],
    queryFn: () =>
      unwrap(
        api.GET('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/commands/{commandId}', {
          params: { path: { ...ref, commandId } },
        }),
      ),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? LIVE_INTERVAL : false),
  });

/**
 * Runs a command: waited for (its exit code and output), or in the
 * background (the list of background commands is asked again).
 */
export function useExec(ref: WorkerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ExecBody): Promise<ExecResult | CommandInfo> =>
      unwrap(
        api.POST('/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/exec', {
          params: { path: ref },
          body,
        }),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: commandsKey(ref) }),
  });
}

/** Cancels a background command (one already ended is answered as it is). */
export function useCancelCommand(ref: WorkerRef) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (commandId: string) =>
      unwrap(
        api.POST(
          '/api/orgs/{orgId}/projects/{projectId}/workers/{workerId}/commands/{commandId}/cancel',
          { params: { path: { ...ref, commandId } } },
        ),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: commandsKey(ref) }),
  });
}
