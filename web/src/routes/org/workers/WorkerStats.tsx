import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type WorkerRef, workerStatsQuery } from '../../../api/workers.js';
import { Sparkline } from './Sparkline.js';

/** How many samples the chart keeps (two minutes at one every two seconds). */
const KEPT = 60;

interface Sample {
  readAt: string;
  cpuPercent: number;
  memoryBytes: number;
}

/** Bytes in MB, or GB from 10 GB on. */
function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb >= 10 * 1024 ? `${(mb / 1024).toFixed(1)} GB` : `${mb.toFixed(1)} MB`;
}

/** CPU and memory of a running worker, sampled every two seconds, as two small live charts. */
export function WorkerStats({ workerRef, running }: { workerRef: WorkerRef; running: boolean }) {
  const stats = useQuery(workerStatsQuery(workerRef, running));
  const [samples, setSamples] = useState<Sample[]>([]);
  const latest = stats.data;
  useEffect(() => {
    if (latest === undefined) return;
    setSamples((kept) =>
      kept.at(-1)?.readAt === latest.readAt ? kept : [...kept, latest].slice(-KEPT),
    );
  }, [latest]);
  const cpuLimit = latest === undefined ? undefined : Math.max(latest.onlineCpus, 1) * 100;
  const memoryLimit = latest?.memoryLimitBytes ?? undefined;
  return (
    <section
      aria-labelledby="worker-stats"
      className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="worker-stats" className="text-lg font-semibold">
        CPU and memory
      </h2>
      {!running ? <p className="text-sm text-zinc-600 dark:text-zinc-400">Not running.</p> : null}
      {stats.error === null ? null : <p role="alert">{stats.error.message}</p>}
      {latest === undefined ? null : (
        <>
          <figure className="flex flex-col gap-1">
            <figcaption className="text-sm">
              CPU <span className="font-medium">{latest.cpuPercent.toFixed(1)} %</span>
              <span className="text-zinc-600 dark:text-zinc-400">
                {' '}
                (100 % is one core; {latest.onlineCpus} cores)
              </span>
            </figcaption>
            <Sparkline values={samples.map((sample) => sample.cpuPercent)} max={cpuLimit} />
          </figure>
          <figure className="flex flex-col gap-1">
            <figcaption className="text-sm">
              Memory <span className="font-medium">{megabytes(latest.memoryBytes)}</span>
              {memoryLimit === undefined ? null : (
                <span className="text-zinc-600 dark:text-zinc-400">
                  {' '}
                  of {megabytes(memoryLimit)}
                </span>
              )}
              <span className="text-zinc-600 dark:text-zinc-400"> · {latest.pids} processes</span>
            </figcaption>
            <Sparkline values={samples.map((sample) => sample.memoryBytes)} />
          </figure>
        </>
      )}
    </section>
  );
}
