import { lazy, Suspense } from 'react';
import type { WorkerRef } from '../../../api/workers.js';
import { SshTokenPanel } from './SshTokenPanel.js';
import { WorkerCommands } from './WorkerCommands.js';
import { WorkerGitStatus } from './WorkerGitStatus.js';
import { WorkerLogs } from './WorkerLogs.js';
import { WorkerPortsPanel } from './WorkerPortsPanel.js';

// The chart is drawn only on this page: its code loads with it.
const WorkerStats = lazy(() =>
  import('./WorkerStats.js').then((module) => ({ default: module.WorkerStats })),
);

/** What runs inside a worker (stats, ports, logs, commands, git status) and its SSH token. */
export function WorkerInside({ workerRef, running }: { workerRef: WorkerRef; running: boolean }) {
  return (
    <>
      {running ? null : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Stats, logs, git status and ports show while the worker is ready.
        </p>
      )}
      <div className="grid gap-4 lg:grid-cols-2">
        <Suspense fallback={<p>Loading the chart…</p>}>
          <WorkerStats workerRef={workerRef} running={running} />
        </Suspense>
        <WorkerPortsPanel workerRef={workerRef} running={running} />
      </div>
      <WorkerLogs workerRef={workerRef} running={running} />
      <WorkerCommands workerRef={workerRef} running={running} />
      <WorkerGitStatus workerRef={workerRef} running={running} />
      <SshTokenPanel workerRef={workerRef} />
    </>
  );
}
