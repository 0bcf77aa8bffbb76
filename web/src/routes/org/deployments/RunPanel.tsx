import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { jobRunQuery, runOutcome } from '../../../api/job-runs.js';
import { LogView, useLogText } from '../../../components/LogView.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { bytesOf, type Frame, useFrames } from '../../../live/useFrames.js';
import { MUTED } from './Section.js';

interface EndFrame {
  status: string;
  reason: string | null;
}

function endOf(frame: Frame): EndFrame {
  return {
    status: typeof frame.status === 'string' ? frame.status : 'ended',
    reason: typeof frame.reason === 'string' ? frame.reason : null,
  };
}

/**
 * One job run: its output followed live over its socket (the kept output
 * first, then what it writes), then its outcome from the run record
 * (switched, or rolled back and why).
 */
export function RunPanel({ orgId, runId }: { orgId: string; runId: string }) {
  const run = useQuery(jobRunQuery(orgId, runId));
  const log = useLogText();
  const [ended, setEnded] = useState<EndFrame | undefined>();
  const { reset } = log;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new run starts a new log
  useEffect(() => {
    reset();
    setEnded(undefined);
  }, [runId, reset]);
  const { state } = useFrames(`/api/job-runs/${runId}/logs`, (frame) => {
    if (frame.type === 'output') log.append(bytesOf(frame.data));
    if (frame.type === 'end') setEnded(endOf(frame));
  });
  const { refetch } = run;
  // The end frame says the run finished: the record then has its outcome.
  useEffect(() => {
    if (ended !== undefined) void refetch();
  }, [ended, refetch]);
  const record = run.data;
  const finished = record !== undefined && !['queued', 'running'].includes(record.status);
  return (
    <div className="flex flex-col gap-2" data-run={runId}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">
          {record === undefined ? 'Run' : `${record.kind.replace('_', '-')} run`}
          {record?.jobName ? ` ${record.jobName}` : ''}
        </span>
        {record === undefined ? null : <StateBadge state={record.status} reason={record.reason} />}
        <span className={MUTED}>
          {state.status === 'open' && ended === undefined ? 'following live' : null}
          {state.status === 'closed' && state.code !== 1000
            ? `the log stream closed (${state.reason || state.code})`
            : null}
        </span>
      </div>
      {record?.image ? <p className={MUTED}>Image {record.image}</p> : null}
      <p role="status" className="text-sm">
        {finished && record !== undefined ? `Outcome: ${runOutcome(record)}` : null}
        {!finished && ended !== undefined ? `Ended: ${ended.status}` : null}
      </p>
      <LogView label="Run output" text={log.text} empty="No output yet." />
      {record?.outputTruncated ? (
        <p className={MUTED}>The run wrote more than 1 MiB: the rest was not kept.</p>
      ) : null}
    </div>
  );
}
