import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { LIVE_INTERVAL } from './orgs.js';
import type { components } from './schema.js';

export type JobRun = components['schemas']['JobRun'];
export type JobRunKind = JobRun['kind'];
export type JobRunStatus = JobRun['status'];

export const JOB_RUN_KINDS: JobRunKind[] = ['deploy', 'pre_deploy', 'cron'];
export const JOB_RUN_STATUSES: JobRunStatus[] = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
];

export interface JobRunFilter {
  kind: JobRunKind[];
  status: JobRunStatus[];
  /** The service's runs only; undefined: every service of the deployment. */
  serviceId?: string | undefined;
}

/** Runs per page of the list; older ones come with "Show older runs". */
export const JOB_RUNS_PAGE = 50;

/**
 * The runs of a deployment (or one of its services), newest first, filtered,
 * in pages (each next one older, by `before`); every page loaded is asked
 * again while shown.
 */
export const jobRunsQuery = (orgId: string, deploymentId: string, filter: JobRunFilter) =>
  infiniteQueryOptions({
    queryKey: ['orgs', orgId, 'deployments', deploymentId, 'job-runs', filter],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query = {
        ...(filter.kind.length > 0 ? { kind: filter.kind } : {}),
        ...(filter.status.length > 0 ? { status: filter.status } : {}),
        ...(pageParam === undefined ? {} : { before: pageParam }),
        limit: JOB_RUNS_PAGE,
      };
      const { serviceId } = filter;
      if (serviceId !== undefined) {
        return unwrap(
          api.GET('/api/orgs/{orgId}/deployments/{deploymentId}/services/{serviceId}/job-runs', {
            params: { path: { orgId, deploymentId, serviceId }, query },
          }),
        );
      }
      return unwrap(
        api.GET('/api/orgs/{orgId}/deployments/{deploymentId}/job-runs', {
          params: { path: { orgId, deploymentId }, query },
        }),
      );
    },
    getNextPageParam: (page) => page.nextBefore ?? undefined,
    refetchInterval: LIVE_INTERVAL,
  });

export const jobRunQuery = (orgId: string, runId: string) =>
  queryOptions({
    queryKey: ['orgs', orgId, 'job-runs', runId],
    queryFn: () =>
      unwrap(api.GET('/api/orgs/{orgId}/job-runs/{runId}', { params: { path: { orgId, runId } } })),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'queued' || status === 'running' ? LIVE_INTERVAL : false;
    },
  });

/** What a run did, in words: the outcome a person reads first. */
export function runOutcome(run: JobRun): string {
  if (run.status === 'queued') return 'Waiting to start';
  if (run.status === 'running') return 'Running';
  if (run.status === 'succeeded') {
    return run.kind === 'deploy' ? 'Switched: the new version serves' : 'Succeeded';
  }
  if (run.status === 'cancelled') return `Cancelled${run.reason ? `: ${run.reason}` : ''}`;
  const why = run.reason ?? (run.exitCode === null ? 'no reason given' : `exit ${run.exitCode}`);
  return run.kind === 'deploy' ? `Rolled back: ${why}` : `Failed: ${why}`;
}
