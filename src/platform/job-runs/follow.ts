import type WebSocket from 'ws';
import type { AppBase, AppContext } from '../../module.js';
import { type FeedRead, type FeedSource, LogFeeds } from '../common/log-feeds.js';
import { JOB_RUN_OUTPUT_CHANNEL, readRunOutput } from './output.js';
import type { JobRunRow } from './repository.js';
import * as repository from './repository.js';
import type { JobRunStatus } from './tables.js';

/**
 * Polled as well as notified: a notification can be lost while the listener
 * reconnects, and a run's end may be written without one.
 */
const POLL_MS = 1000;

const FINISHED: ReadonlySet<JobRunStatus> = new Set(['succeeded', 'failed', 'cancelled']);

export function isFinished(status: JobRunStatus): boolean {
  return FINISHED.has(status);
}

/**
 * One run's output as the shared reader of its followers sees it: the
 * `output` frames read so far (at most the run's 1 MiB cap, kept while the
 * run has followers here, for those who join later), then its end. The run
 * is read before its output, so once a finished status is seen every chunk
 * written before it is read too.
 */
function runSource(ctx: AppContext, runId: string): FeedSource {
  const sent: string[] = [];
  let lastSeq = -1;
  return {
    replay: () => sent,
    read: async () => {
      const row = await repository.findRun(ctx.db, runId);
      if (row === undefined) {
        return (): FeedRead => ({
          frames: [
            JSON.stringify({
              type: 'end',
              status: null,
              exitCode: null,
              reason: 'The run was deleted',
            }),
          ],
          end: { code: 1000, reason: 'run deleted' },
        });
      }
      const chunks = await readRunOutput(ctx.db, runId, lastSeq);
      return () => {
        const frames: string[] = [];
        for (const chunk of chunks) {
          // A read that overlapped another never repeats a chunk.
          if (chunk.seq <= lastSeq) continue;
          frames.push(`{"type":"output","data":"${chunk.data.toString('base64')}"}`);
          lastSeq = chunk.seq;
        }
        sent.push(...frames);
        if (!isFinished(row.status)) return { frames };
        frames.push(
          JSON.stringify({
            type: 'end',
            status: row.status,
            exitCode: row.exit_code,
            reason: row.reason,
            outputBytes: row.output_bytes,
            outputTruncated: row.output_truncated,
          }),
        );
        return { frames, end: { code: 1000, reason: `run ${row.status}` } };
      };
    },
  };
}

/** The job-run log readers of an app (built with it, `runtime.ts`). */
export function createRunFeeds(base: AppBase): LogFeeds {
  return new LogFeeds({
    listener: base.listener,
    log: base.log,
    what: 'job run',
    pollMs: POLL_MS,
    channel: JOB_RUN_OUTPUT_CHANNEL,
  });
}

/**
 * Sends a run's stored output over a socket from the start, then what is
 * appended while it runs, then `end` with its status and exit code, and
 * closes. It reads the database only, so any server process serves it: the
 * followers of one run in this process share one reader (./../common/log-feeds.ts),
 * woken by the run's `NOTIFY` (sent with each chunk stored) and by polling.
 */
export function followRun(ctx: AppContext, socket: WebSocket, first: JobRunRow): void {
  if (socket.readyState !== socket.OPEN) return;
  socket.send(
    JSON.stringify({ type: 'ready', mode: 'logs', runId: first.id, status: first.status }),
  );
  ctx.runFeeds.follow(first.id, socket, () => runSource(ctx, first.id));
}
