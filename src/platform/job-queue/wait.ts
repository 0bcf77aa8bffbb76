import { subscribe } from '../../db/listen.js';
import type { AppContext } from '../../module.js';
import { findJob, JOBS_DONE_CHANNEL, type JobRow } from './queue.js';

/** Polled as well as notified: a notification can be lost while the listener reconnects. */
const POLL_MS = 250;

/**
 * Resolves with the job once it has finished (succeeded or failed), which
 * ever server process ran it: woken by its `NOTIFY` on PostgreSQL, by polling
 * the row on PGlite. Undefined when the job does not exist (anymore).
 */
export async function waitForJob(ctx: AppContext, jobId: string): Promise<JobRow | undefined> {
  let wake: () => void = () => {};
  // null: notifications may have been missed (the listener reconnected): look again.
  const unlisten = subscribe(ctx.listener, JOBS_DONE_CHANNEL, (id) => {
    if (id === null || id === jobId) wake();
  });
  try {
    for (;;) {
      const job = await findJob(ctx.db, jobId);
      if (job === undefined || job.state === 'succeeded' || job.state === 'failed') return job;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unlisten();
  }
}
