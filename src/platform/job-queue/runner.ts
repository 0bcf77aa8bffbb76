import { sql } from 'kysely';
import { AgentRequestError } from '../../agent/peer.js';
import { notify, subscribe } from '../../db/listen.js';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { AppBase } from '../../module.js';
import type { AgentRegistry } from '../nodes/registry.js';
import { NODE_STALE_MS } from '../nodes/service.js';
import type { AnywhereJobKind, JobKind, JobKinds } from './kinds.js';
import { ANYWHERE, JOBS_CHANNEL, JOBS_DONE_CHANNEL, type JobRow } from './queue.js';
import type { JobState } from './tables.js';

/** Claimed at most per round; more wait for the next. */
const CLAIM_BATCH = 16;
/** A job claimed this often (each claim after an interruption) is given up. */
const MAX_ATTEMPTS = 3;
/** A job of a node no process holds is failed after its agent stayed away this long. */
const ORPHAN_GRACE_MS = 60_000;

function reasonOf(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') {
    return `${error.code}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs the jobs of the nodes whose agents this process holds, and jobs
 * without a node (any process may run those). A round claims
 * open jobs (queued, or running under a lease that ran out) with `FOR UPDATE
 * SKIP LOCKED`, oldest first and one per target at a time; the claim is a
 * lease this runner renews while the job runs. Rounds are woken by
 * `NOTIFY` (PostgreSQL), by an agent connecting, and by a poll.
 */
export class JobRunner {
  /** This server process, as it signs its leases. */
  readonly owner: string;
  private readonly running = new Map<string, { task: Promise<void>; abort: AbortController }>();
  private round: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private unlisten: () => void = () => {};

  constructor(
    private readonly ctx: AppBase,
    private readonly registry: AgentRegistry,
    private readonly kinds: JobKinds,
  ) {
    this.owner = registry.processId;
  }

  start(): void {
    const { jobPollMs, jobLeaseMs } = this.ctx.config;
    this.unlisten = subscribe(
      this.ctx.listener,
      JOBS_CHANNEL,
      (nodeId) => {
        // null: notifications may have been missed (the listener reconnected): look anyway.
        if (nodeId === null || nodeId === ANYWHERE || this.registry.get(nodeId) !== undefined) {
          this.wake();
        }
      },
      (error) => this.ctx.log.warn({ err: error }, 'job notifications unavailable; polling'),
    );
    this.registry.on('connected', () => this.wake());
    this.timers.push(setInterval(() => this.wake(), jobPollMs));
    this.timers.push(setInterval(() => void this.renew(), Math.max(100, jobLeaseMs / 3)));
    for (const timer of this.timers) timer.unref();
    this.wake();
  }

  /** Runs a claim round now, or right after the one under way. */
  wake(): void {
    if (this.stopped) return;
    if (this.round !== null) {
      this.again = true;
      return;
    }
    this.round = this.claimRound()
      .catch((error: unknown) => this.ctx.log.warn({ err: error }, 'job claim round failed'))
      .finally(() => {
        this.round = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async claimRound(): Promise<void> {
    await this.failOrphans();
    const jobs = await this.claim(this.registry.connectedNodeIds());
    for (const job of jobs) {
      const abort = new AbortController();
      const task = this.execute(job, abort.signal)
        // Its lease runs out and the job is claimed again: nothing is lost, the process stays up.
        .catch((error: unknown) =>
          this.ctx.log.warn({ err: error, jobId: job.id }, 'job ended badly'),
        )
        .finally(() => this.running.delete(job.id));
      this.running.set(job.id, { task, abort });
    }
  }

  /** Jobs of the nodes this process holds, of kinds it runs there; jobs of no node, of kinds it runs. */
  private claimable(nodeIds: readonly string[]) {
    const nodeKinds = this.kinds.names(false);
    const anywhereKinds = this.kinds.names(true);
    const conditions = [];
    if (nodeIds.length > 0 && nodeKinds.length > 0) {
      conditions.push(
        sql`(j.node_id in (${sql.join(nodeIds)}) and j.kind in (${sql.join(nodeKinds)}))`,
      );
    }
    if (anywhereKinds.length > 0) {
      conditions.push(sql`(j.node_id is null and j.kind in (${sql.join(anywhereKinds)}))`);
    }
    return conditions.length === 0 ? null : sql.join(conditions, sql` or `);
  }

  /**
   * Only kinds this process knows: during a rolling upgrade, a job of a kind
   * only newer processes run waits for one of them to hold the node's agent.
   */
  private async claim(nodeIds: readonly string[]): Promise<JobRow[]> {
    const claimable = this.claimable(nodeIds);
    if (claimable === null) return [];
    // A job still under way here whose lease ran out (a busy event loop renewed it late) is not
    // claimed again by this process: two runs of one job would undo each other's containers.
    const running = [...this.running.keys(), '00000000-0000-0000-0000-000000000000'];
    const leaseMs = this.ctx.config.jobLeaseMs;
    const result = await sql<JobRow>`
      update jobs set
        state = 'running',
        attempts = attempts + 1,
        lease_owner = ${this.owner},
        lease_expires_at = now() + ${leaseMs}::integer * interval '1 millisecond',
        started_at = coalesce(started_at, now())
      where id in (
        select j.id from jobs j
        where (${claimable})
          and (j.state = 'queued' or (j.state = 'running' and j.lease_expires_at < now()))
          and not (j.lease_owner = ${this.owner} and j.id in (${sql.join(running)}))
          and not exists (
            select 1 from jobs o
            where o.target_id = j.target_id and o.state in ('queued', 'running') and o.id < j.id)
        order by j.id
        limit ${CLAIM_BATCH}
        for update skip locked)
      returning *`.execute(this.ctx.db);
    return result.rows;
  }

  private async execute(job: JobRow, signal: AbortSignal): Promise<void> {
    const registered = this.kinds.get(job.kind);
    if (registered === undefined) {
      await this.finish(job, 'failed', `unknown job kind ${job.kind}`);
      return;
    }
    if (job.attempts > MAX_ATTEMPTS) {
      const { kind } = registered;
      await this.finish(job, 'failed', `interrupted ${job.attempts - 1} times`, kind.fail);
      return;
    }
    if (registered.anywhere) await this.executeAnywhere(job, registered.kind, signal);
    else await this.executeOnNode(job, registered.kind);
  }

  private async executeAnywhere(
    job: JobRow,
    kind: AnywhereJobKind,
    signal: AbortSignal,
  ): Promise<void> {
    try {
      await kind.run(job, signal);
      await this.finish(job, 'succeeded', null);
    } catch (error) {
      // Let go (stopping, or the lease was lost): handed on, or already another process's.
      if (signal.aborted) {
        await this.release(job);
        return;
      }
      // An agent link dropped mid-request (its process or the agent restarting): handed back and
      // run again like a takeover (it starts over, waiting for the agent to be back), not failed.
      if (error instanceof AgentRequestError && error.code === 'agent_disconnected') {
        await this.release(job);
        return;
      }
      const reason = reasonOf(error);
      this.ctx.log.warn({ jobId: job.id, kind: job.kind, reason }, 'job failed');
      await this.finish(job, 'failed', reason, kind.fail);
    }
  }

  private async executeOnNode(job: JobRow, kind: JobKind): Promise<void> {
    const agent = job.node_id === null ? undefined : this.registry.get(job.node_id);
    if (agent === undefined) {
      await this.release(job);
      return;
    }
    try {
      await kind.run(job, agent);
      await this.finish(job, 'succeeded', null);
    } catch (error) {
      if (error instanceof AgentRequestError && error.code === 'agent_disconnected') {
        // The move goes on where the agent connects again (here or in another process).
        await this.release(job);
        return;
      }
      const reason = reasonOf(error);
      this.ctx.log.warn({ jobId: job.id, kind: job.kind, reason }, 'job failed');
      await this.finish(job, 'failed', reason, kind.fail);
    }
  }

  /** Ends the job (and, failing, records why on its target) in one transaction, then wakes waiters. */
  private async finish(
    job: JobRow,
    state: Extract<JobState, 'succeeded' | 'failed'>,
    error: string | null,
    fail?: (db: Database, job: JobRow, reason: string) => Promise<void>,
  ): Promise<void> {
    await inTransaction(this.ctx.db, async (trx) => {
      const ended = await trx
        .updateTable('jobs')
        .set({
          state,
          error,
          finished_at: new Date(),
          lease_owner: null,
          lease_expires_at: null,
        })
        .where('id', '=', job.id)
        .where('lease_owner', '=', this.owner)
        .returning('id')
        .executeTakeFirst();
      // Another process took the job over (our lease ran out): the outcome is theirs to record.
      if (ended === undefined) return;
      if (fail !== undefined && error !== null) await fail(trx, job, error);
      await notify(trx, JOBS_DONE_CHANNEL, job.id);
    });
    this.wake();
  }

  /** Hands the job back, to be claimed by whichever process holds its agent next. */
  private async release(job: JobRow): Promise<void> {
    await this.ctx.db
      .updateTable('jobs')
      .set({ state: 'queued', lease_owner: null, lease_expires_at: null })
      .where('id', '=', job.id)
      .where('lease_owner', '=', this.owner)
      .execute();
    await notify(this.ctx.db, JOBS_CHANNEL, job.node_id ?? ANYWHERE);
  }

  /** Renews the leases of the jobs under way; a job whose lease another process took is let go. */
  private async renew(): Promise<void> {
    const ids = [...this.running.keys()];
    if (ids.length === 0) return;
    try {
      const kept = await this.ctx.db
        .updateTable('jobs')
        .set({
          lease_expires_at: sql<Date>`now() + ${this.ctx.config.jobLeaseMs}::integer * interval '1 millisecond'`,
        })
        .where('id', 'in', ids)
        .where('lease_owner', '=', this.owner)
        .where('state', '=', 'running')
        .returning('id')
        .execute();
      const still = new Set(kept.map((row) => row.id));
      for (const id of ids) if (!still.has(id)) this.running.get(id)?.abort.abort();
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'could not renew job leases');
    }
  }

  /**
   * Fails the open jobs of nodes that no process has heard from for a
   * while (unclaimed, or their lease ran out), so that their targets end in
   * a final state with a reason even when the node never comes back.
   */
  private async failOrphans(): Promise<void> {
    const staleMs = NODE_STALE_MS;
    await inTransaction(this.ctx.db, async (trx) => {
      const { rows } = await sql<JobRow>`
        select j.* from jobs j join nodes n on n.id = j.node_id
        where (j.state = 'queued' or (j.state = 'running' and j.lease_expires_at < now()))
          and not (n.connected and n.last_seen_at > now() - ${staleMs}::integer * interval '1 millisecond')
          and coalesce(n.last_seen_at, j.created_at)
            < now() - ${ORPHAN_GRACE_MS}::integer * interval '1 millisecond'
        order by j.id
        limit ${CLAIM_BATCH}
        for update of j skip locked`.execute(trx);
      for (const job of rows) {
        const reason = 'the node went offline before the move finished';
        await trx
          .updateTable('jobs')
          .set({ state: 'failed', error: reason, finished_at: new Date(), lease_owner: null })
          .where('id', '=', job.id)
          .execute();
        await this.kinds.get(job.kind)?.kind.fail(trx, job, reason);
        await notify(trx, JOBS_DONE_CHANNEL, job.id);
      }
    });
  }

  /** Stops claiming, lets the jobs under way go (their agents are closing) and waits for them. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unlisten();
    for (const timer of this.timers) clearInterval(timer);
    await this.round;
    // Jobs without a node are handed back at once, for another process to go on with.
    for (const { abort } of this.running.values()) abort.abort();
    await Promise.all([...this.running.values()].map(({ task }) => task));
  }
}
