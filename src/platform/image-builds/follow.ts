import type WebSocket from 'ws';
import type { AppBase, AppContext } from '../../module.js';
import { type FeedRead, type FeedSource, LogFeeds } from '../common/log-feeds.js';
import { type BuildActivity, IMAGE_BUILD_CHANNEL } from './activity.js';
import * as repository from './repository.js';

/** Polled as well: a notification can be lost, and some ends are written without one. */
const POLL_MS = 2000;

const FINISHED = new Set(['succeeded', 'failed']);

/**
 * One build as the shared reader of its followers sees it. Each read is
 * compared with what was sent, so a change read twice is sent once: a step
 * again when it changed (the latest frame of a step wins), the log by what
 * was appended. A follower that joins later gets each step's latest frame
 * and the whole log read so far.
 */
function buildSource(ctx: AppContext, buildId: string): FeedSource {
  const steps: string[] = [];
  let log: string | null = null;
  return {
    replay: () => (log === null ? [] : [...steps, JSON.stringify({ type: 'log', data: log })]),
    read: async () => {
      const row = await repository.findBuild(ctx.db, buildId);
      return (): FeedRead => {
        if (row === undefined) {
          return {
            frames: [
              JSON.stringify({ type: 'end', status: 'failed', error: 'The build was deleted' }),
            ],
            end: { code: 1000, reason: 'build deleted' },
          };
        }
        const frames: string[] = [];
        row.steps.forEach((step, index) => {
          const frame = JSON.stringify({ type: 'step', index, ...step });
          if (steps[index] === frame) return;
          steps[index] = frame;
          frames.push(frame);
        });
        if (log === null || row.log.length > log.length) {
          frames.push(JSON.stringify({ type: 'log', data: row.log.slice(log?.length ?? 0) }));
          log = row.log;
        }
        if (!FINISHED.has(row.status)) return { frames };
        frames.push(JSON.stringify({ type: 'end', status: row.status, error: row.error }));
        return { frames, end: { code: 1000, reason: `build ${row.status}` } };
      };
    },
  };
}

/** The image-build log readers of an app (built with it, `runtime.ts`). */
export function createBuildFeeds(base: AppBase, { changes }: BuildActivity): LogFeeds {
  return new LogFeeds({
    listener: base.listener,
    log: base.log,
    what: 'image build',
    pollMs: POLL_MS,
    channel: IMAGE_BUILD_CHANNEL,
    // A change made in this process wakes its followers at once.
    watch: (buildId, wake) => {
      changes.on(buildId, wake);
      return () => changes.off(buildId, wake);
    },
  });
}

/**
 * Sends a build's steps and log over a socket, then what changes, then its
 * end. The followers of one build in this process share one reader
 * (../common/log-feeds.ts), woken by changes made here, by the build's
 * `NOTIFY` from the process running it, and by polling.
 */
export function followBuild(ctx: AppContext, socket: WebSocket, buildId: string): void {
  ctx.builds.feeds.follow(buildId, socket, () => buildSource(ctx, buildId));
}
