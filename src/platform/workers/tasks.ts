import type { AppContext } from '../../module.js';

/**
 * The lifecycle moves running in this process, one at most per worker. A
 * request that asked to `wait` awaits its worker's; closing the app awaits
 * them all, so a move is never cut off half-written.
 */
export class WorkerTasks {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly log: AppContext['log']) {}

  has(workerId: string): boolean {
    return this.running.has(workerId);
  }

  run(workerId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.running.get(workerId) ?? Promise.resolve();
    const task: Promise<void> = previous
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error, workerId }, 'worker task failed'))
      .finally(() => {
        if (this.running.get(workerId) === task) this.running.delete(workerId);
      });
    this.running.set(workerId, task);
    return task;
  }

  /** Resolves when the worker's current move (if any) is over. */
  settled(workerId: string): Promise<void> {
    return this.running.get(workerId) ?? Promise.resolve();
  }

  async drain(): Promise<void> {
    await Promise.all(this.running.values());
  }
}

const all = new WeakMap<AppContext, WorkerTasks>();

export function workerTasks(ctx: AppContext): WorkerTasks {
  let tasks = all.get(ctx);
  if (tasks === undefined) {
    tasks = new WorkerTasks(ctx.log);
    all.set(ctx, tasks);
  }
  return tasks;
}
