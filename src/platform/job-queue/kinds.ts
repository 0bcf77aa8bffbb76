import type { Database } from '../../db/schema.js';
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

/**
 * What a kind of job without a node does (a deploy, which reaches the nodes
 * it needs itself). Any server process claims it, under the same lease and
 * takeover rules, so `run` must also pick up from what it finds. `signal`
 * aborts when this process lets the job go (it is stopping, or its lease was
 * taken over): `run` should then return or throw promptly, and the job is
 * handed on.
 */
export interface AnywhereJobKind {
  run(job: JobRow, signal: AbortSignal): Promise<void>;
  fail(db: Database, job: JobRow, reason: string): Promise<void>;
}

export type RegisteredKind =
  | { anywhere: false; kind: JobKind }
  | { anywhere: true; kind: AnywhereJobKind };

/** The kinds of one application; modules register theirs (workers, image builds, ...). */
export class JobKinds {
  private readonly kinds = new Map<string, RegisteredKind>();

  /** A kind run by the process holding the job's node's agent. */
  register(name: string, kind: JobKind): void {
    this.add(name, { anywhere: false, kind });
  }

  /** A kind of job queued without a node, run by any server process. */
  registerAnywhere(name: string, kind: AnywhereJobKind): void {
    this.add(name, { anywhere: true, kind });
  }

  private add(name: string, registered: RegisteredKind): void {
    if (this.kinds.has(name)) throw new Error(`job kind ${name} is registered twice`);
    this.kinds.set(name, registered);
  }

  get(name: string): RegisteredKind | undefined {
    return this.kinds.get(name);
  }

  /** The names of the kinds run on a node's agent (`anywhere: false`) or by any process. */
  names(anywhere = false): string[] {
    return [...this.kinds].filter(([, kind]) => kind.anywhere === anywhere).map(([name]) => name);
  }
}
