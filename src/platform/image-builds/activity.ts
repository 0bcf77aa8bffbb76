import { EventEmitter } from 'node:events';
import type { AppContext } from '../../module.js';

/**
 * The builds running in this process, and a signal when a build's record
 * changed: `changes` emits the build id as the event name, after the new
 * state is written, so a listener reads it back from the database. Closing
 * the app awaits the running builds.
 */
export class BuildActivity {
  readonly changes = new EventEmitter();
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly log: AppContext['log']) {
    // One listener per open log socket.
    this.changes.setMaxListeners(0);
  }

  run(buildId: string, work: () => Promise<void>): Promise<void> {
    const task = work()
      .catch((error: unknown) => this.log.error({ err: error, buildId }, 'image build crashed'))
      .finally(() => this.running.delete(buildId));
    this.running.set(buildId, task);
    return task;
  }

  /** Whether the build runs in this process. */
  has(buildId: string): boolean {
    return this.running.has(buildId);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running.values());
  }
}

const all = new WeakMap<AppContext, BuildActivity>();

export function buildActivity(ctx: AppContext): BuildActivity {
  let activity = all.get(ctx);
  if (activity === undefined) {
    activity = new BuildActivity(ctx.log);
    all.set(ctx, activity);
  }
  return activity;
}
