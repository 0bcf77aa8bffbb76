import type WebSocket from 'ws';
import { coalesced } from '../../lib/coalesced.js';
import type { AppContext } from '../../module.js';
import { buildActivity } from './activity.js';
import type { ImageBuildRow } from './repository.js';
import * as repository from './repository.js';

/** A build run by another server process is followed by reading its record this often. */
const POLL_MS = 2000;

const FINISHED = new Set(['succeeded', 'failed']);

/**
 * Sends a build's steps and log over a socket, then what changes, then its
 * end. Each change is read back from the database and compared with what was
 * sent, so a change that arrives twice, or while a read is under way, is sent
 * once: a step again when it changed (the latest frame of a step wins), the
 * log by what was appended.
 */
export function followBuild(ctx: AppContext, socket: WebSocket, buildId: string): void {
  const changes = buildActivity(ctx).changes;
  const sentSteps: string[] = [];
  let sentLog: number | null = null;
  let done = false;

  const send = (frame: object) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };

  const stop = () => {
    done = true;
    changes.off(buildId, refresh);
    clearInterval(timer);
  };

  const finish = (code: number, reason: string) => {
    stop();
    if (socket.readyState === socket.OPEN) socket.close(code, reason);
  };

  const sendChanges = (row: ImageBuildRow) => {
    row.steps.forEach((step, index) => {
      const json = JSON.stringify(step);
      if (sentSteps[index] === json) return;
      sentSteps[index] = json;
      send({ type: 'step', index, ...step });
    });
    if (sentLog === null || row.log.length > sentLog) {
      send({ type: 'log', data: row.log.slice(sentLog ?? 0) });
      sentLog = row.log.length;
    }
    if (FINISHED.has(row.status)) {
      send({ type: 'end', status: row.status, error: row.error });
      finish(1000, `build ${row.status}`);
    }
  };

  const refresh = coalesced(async () => {
    if (done) return;
    try {
      const row = await repository.findBuild(ctx.db, buildId);
      if (done) return;
      if (row === undefined) {
        send({ type: 'end', status: 'failed', error: 'The build was deleted' });
        finish(1000, 'build deleted');
        return;
      }
      sendChanges(row);
    } catch (error) {
      ctx.log.warn({ err: error, buildId }, 'could not read an image build for its followers');
      finish(1011, 'could not read the build');
    }
  });

  const timer = setInterval(() => void refresh(), POLL_MS);
  timer.unref();
  // Listening first: a change made while the first read runs is read again after it.
  changes.on(buildId, refresh);
  socket.on('close', stop);
  void refresh();
}
