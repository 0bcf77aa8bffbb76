import type { Database } from '../../db/schema.js';
import type { AppContext } from '../../module.js';
import type { ConnectedAgent } from '../nodes/registry.js';
import type { JobRow } from './queue.js';

/**
 * What a kind of job does. `run` may be called again for the same job when
 * the process that ran it died (or its agent link dropped) before it
 * finished, so it must pick up from what it finds: the target's state, the
 * node's containers.
 */
export interface JobKind {
  run(job: JobRow, agent: ConnectedAgent): Promise<void>;
  /**
   * The job will not finish (it threw, was interrupted too often, or its
   * node went away): record why on its target, with `db` (the transaction
   * that marks the job failed), so nothing stays in a transient state.
   */
  fail(db: Database, job: JobRow, reason: string): Promise<void>;
}

/** The kinds of one application; modules register theirs (workers, image builds, ...). */
export class JobKinds {
  private readonly kinds = new Map<string, JobKind>();

  register(name: string, kind: JobKind): void {
    if (this.kinds.has(name)) throw new Error(`job kind ${name} is registered twice`);
    this.kinds.set(name, kind);
  }

  get(name: string): JobKind | undefined {
    return this.kinds.get(name);
  }

  names(): string[] {
    return [...this.kinds.keys()];
  }
}

const all = new WeakMap<AppContext, JobKinds>();

export function jobKinds(ctx: AppContext): JobKinds {
  let kinds = all.get(ctx);
  if (kinds === undefined) {
    kinds = new JobKinds();
    all.set(ctx, kinds);
  }
  return kinds;
}
