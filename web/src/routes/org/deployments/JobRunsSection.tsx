import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  JOB_RUN_KINDS,
  JOB_RUN_STATUSES,
  type JobRunFilter,
  jobRunsQuery,
} from '../../../api/job-runs.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { RunPanel } from './RunPanel.js';
import { MUTED, Section } from './Section.js';

function toggle<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((item) => item !== value) : [...list, value];
}

function when(at: string): string {
  return new Date(at).toLocaleString();
}

/**
 * The job runs of a deployment (or one service), newest first, filtered by
 * kind and status, 50 at a time (older ones on asking); each opens.
 */
export function JobRunsSection(props: {
  orgId: string;
  deploymentId: string;
  serviceId?: string;
  serviceNames?: Map<string, string>;
  /** The run shown open (a deploy just asked for opens itself). */
  openRunId: string | undefined;
  onOpen: (runId: string | undefined) => void;
}) {
  const [filter, setFilter] = useState<JobRunFilter>({ kind: [], status: [] });
  const runs = useInfiniteQuery(
    jobRunsQuery(props.orgId, props.deploymentId, { ...filter, serviceId: props.serviceId }),
  );
  const list = runs.data?.pages.flatMap((page) => page.runs);
  return (
    <Section id="job-runs" title="Job runs">
      <div className="flex flex-wrap gap-6">
        <fieldset className="flex flex-wrap gap-3">
          <legend className="text-sm font-medium">Kind</legend>
          {JOB_RUN_KINDS.map((kind) => (
            <label key={kind} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={filter.kind.includes(kind)}
                onChange={() => setFilter({ ...filter, kind: toggle(filter.kind, kind) })}
              />
              {kind}
            </label>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap gap-3">
          <legend className="text-sm font-medium">Status</legend>
          {JOB_RUN_STATUSES.map((status) => (
            <label key={status} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={filter.status.includes(status)}
                onChange={() => setFilter({ ...filter, status: toggle(filter.status, status) })}
              />
              {status}
            </label>
          ))}
        </fieldset>
      </div>
      {runs.error === null ? null : <FormAlert message={runs.error.message} />}
      {list?.length === 0 ? <p className={MUTED}>No run matches.</p> : null}
      <ul aria-label="Runs" className="flex flex-col gap-1">
        {list?.map((run) => (
          <li key={run.id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0 text-sm">
              <span className="font-medium">
                {run.kind}
                {run.jobName ? ` ${run.jobName}` : ''}
              </span>{' '}
              <span className={MUTED}>
                {props.serviceNames?.get(run.serviceId) ?? ''} {when(run.createdAt)}
                {run.reason ? ` · ${run.reason}` : ''}
              </span>
            </span>
            <span className="flex items-center gap-2">
              <StateBadge state={run.status} reason={run.reason} />
              <Button
                variant="quiet"
                aria-expanded={props.openRunId === run.id}
                onClick={() => props.onOpen(props.openRunId === run.id ? undefined : run.id)}
              >
                {props.openRunId === run.id ? 'Close' : 'Open'}
                <span className="sr-only">
                  {' '}
                  {run.kind} run of {when(run.createdAt)}
                </span>
              </Button>
            </span>
          </li>
        ))}
      </ul>
      {runs.hasNextPage ? (
        <Button
          variant="quiet"
          className="self-start"
          disabled={runs.isFetchingNextPage}
          onClick={() => void runs.fetchNextPage()}
        >
          {runs.isFetchingNextPage ? 'Loading older runs…' : 'Show older runs'}
        </Button>
      ) : null}
      {props.openRunId === undefined ? null : (
        <RunPanel orgId={props.orgId} runId={props.openRunId} />
      )}
    </Section>
  );
}
