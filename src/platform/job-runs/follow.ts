import type WebSocket from 'ws';
import { subscribe } from '../../db/listen.js';
import { coalesced } from '../../lib/coalesced.js';
import type { AppContext } from '../../module.js';
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
 * Sends a run's stored output over a socket from the start, then what is
 * appended while it runs, then `end` with its status and exit code, and
 * closes. It reads the database only, so any server process serves it: woken
 * by the run's `NOTIFY` (sent with each chunk stored), and by polling. The
 * run is read before its output, so once a finished status is seen every
 * chunk written before it is read too.
 */
export function followRun(ctx: AppContext, socket: WebSocket, first: JobRunRow): void {
  const runId = first.id;
  let lastSeq = -1;
  let done = false;

  const send = (text: string) => {
    if (socket.readyState === socket.OPEN) socket.send(text);
  };
  const stop = () => {
    done = true;
    clearInterval(timer);
    unlisten();
  };
  const finish = (code: number, reason: string) => {
    stop();
    if (socket.readyState === socket.OPEN) socket.close(code, reason);
  };

  const sendChanges = async (row: JobRunRow) => {
    const chunks = await readRunOutput(ctx.db, runId, lastSeq);
    if (done) return;
    for (const chunk of chunks) {
      send(`{"type":"output","data":"${chunk.data.toString('base64')}"}`);
      lastSeq = chunk.seq;
    }
    if (!isFinished(row.status)) return;
    send(
      JSON.stringify({
        type: 'end',
        status: row.status,
        exitCode: row.exit_code,
        reason: row.reason,
        outputBytes: row.output_bytes,
        outputTruncated: row.output_truncated,
      }),
    );
    finish(1000, `run ${row.status}`);
  };

  const refresh = coalesced(async () => {
    if (done) return;
    try {
      const row = await repository.findRun(ctx.db, runId);
      if (done) return;
      if (row === undefined) {
        send(
          JSON.stringify({
            type: 'end',
            status: null,
            exitCode: null,
            reason: 'The run was deleted',
          }),
        );
        finish(1000, 'run deleted');
        return;
      }
      await sendChanges(row);
    } catch (error) {
      ctx.log.warn({ err: error, runId }, 'could not read a job run for its followers');
      finish(1011, 'could not read the run');
    }
  });

  // Listening first: output stored while the first read runs is read again after it.
  const unlisten = subscribe(
    ctx.listener,
    JOB_RUN_OUTPUT_CHANNEL,
    (payload) => {
      if (payload === null || payload === runId) void refresh();
    },
    (error) => ctx.log.warn({ err: error }, 'job run followers fall back to polling'),
  );
  const timer = setInterval(() => void refresh(), POLL_MS);
  timer.unref();
  socket.on('close', stop);
  send(JSON.stringify({ type: 'ready', mode: 'logs', runId, status: first.status }));
  void refresh();
}
