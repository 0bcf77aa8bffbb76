import { sql } from 'kysely';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import type { AppContext } from '../../module.js';
import type { JobRow } from '../job-queue/queue.js';
import { RunOutput } from '../job-runs/output.js';
import * as jobRuns from '../job-runs/service.js';
import { findProject } from '../projects/repository.js';
import { serviceEnvironment, serviceLabels } from './environment.js';
import { runOneOff } from './one-off.js';
import { NoPlaceError, nodeReconnecting, placeReplicas } from './placement.js';
import { projectImage } from './project-image.js';
import { AGENT_WAIT_MS, queueRemovals, reachWhenBack } from './removals.js';
import { containerName, removeReplicas, sleep, startReplica, waitHealthy } from './replica-ops.js';
import type { ReplicaRow } from './replicas.js';
import type { ServiceRow } from './repository.js';
import * as runs from './runs.js';

const HOOK_NAME = (runId: string) => `sparrow-hook-${runId}`;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * One deploy of a service (a job any server process runs): resolve the
 * image, run the pre-deploy hook, start `replicas` new containers, wait for
 * each to pass its health check, switch traffic in one transaction, keep
 * the replaced replicas for the drain period, then remove them. A deploy
 * taken over after its process died starts over from what it finds: past
 * the switch it only drains; before it, the containers the interrupted
 * attempt started are removed and it begins again.
 */
export class Deploy {
  private readonly output: RunOutput;

  constructor(
    private readonly ctx: AppContext,
    private readonly job: JobRow,
    private readonly runId: string,
    private readonly signal: AbortSignal,
  ) {
    this.output = new RunOutput(ctx.db, runId);
  }

  private say(line: string): void {
    this.output.write(`${line}\n`);
  }

  async run(): Promise<void> {
    const { db } = this.ctx;
    const run = await jobRuns.findRun(db, this.runId);
    if (run === undefined || !['queued', 'running'].includes(run.status)) return;
    const service = await runs.findServiceById(db, this.job.target_id);
    if (service === undefined) return;
    if (this.job.attempts > 1) {
      await jobRuns.resetOutput(db, this.runId);
      await jobRuns.cancelChildren(db, this.runId, 'interrupted: the deploy was taken over');
    }
    await jobRuns.startRun(db, this.runId);
    if (this.job.attempts > 1) this.say(`taken over (attempt ${this.job.attempts}): starting over`);
    try {
      if (service.active_run_id !== this.runId) await this.rollOut(service, run.image);
      await this.drain(service);
      this.say('deploy succeeded');
      await this.output.flush();
      await jobRuns.endRun(db, this.runId, { status: 'succeeded' });
    } catch (error) {
      if (!this.signal.aborted) this.say(`deploy failed: ${message(error)}`);
      await this.output.flush().catch(() => {});
      throw error;
    }
  }

  /** Everything up to and with the switch; on failure, the new containers are removed. */
  private async rollOut(service: ServiceRow, pinned: string | null): Promise<void> {
    // Containers a deploy started and never switched to (an interrupted attempt of this one, or
    // a deploy that failed before it could clean up): none of them serves.
    const stale = await this.replicas(service.id, 'starting');
    if (stale.length > 0) {
      this.say(`removing ${stale.length} container(s) of an unfinished deploy`);
      await removeReplicas(this.ctx, stale, this.output);
    }
    const placed = await this.place(service);
    try {
      const { image, images } = await this.resolveImages(service, pinned, placed);
      await this.preDeploy(service, image, placed);
      await this.startAll(service, images, placed);
      await this.switchTraffic(service);
    } catch (error) {
      if (!this.signal.aborted) {
        this.say('removing the new containers; the replicas serving before keep serving');
        await removeReplicas(this.ctx, await this.replicas(service.id, 'starting', this.runId));
      }
      throw error;
    }
  }

  private replicas(serviceId: string, state: ReplicaRow['state'], runId?: string) {
    return this.ctx.db
      .selectFrom('service_replicas')
      .selectAll()
      .where('service_id', '=', serviceId)
      .where('state', '=', state)
      .$if(runId !== undefined, (query) => query.where('run_id', '=', runId ?? ''))
      .orderBy('container_name')
      .execute();
  }

  /**
   * Places the replicas; while no node has room but one is reconnecting (a
   * server restarted and took this deploy over first), waits for it.
   */
  private async place(service: ServiceRow): Promise<ReplicaRow[]> {
    const deadline = Date.now() + AGENT_WAIT_MS;
    for (;;) {
      try {
        return await this.placeNow(service);
      } catch (error) {
        const wait =
          error instanceof NoPlaceError &&
          Date.now() < deadline &&
          !this.signal.aborted &&
          (await nodeReconnecting(this.ctx.db, service.org_id));
        if (!wait) throw error;
      }
      await sleep(500, this.signal);
    }
  }

  /** Places the replicas and writes their rows (`starting`) before any container exists. */
  private async placeNow(service: ServiceRow): Promise<ReplicaRow[]> {
    return inTransaction(this.ctx.db, async (trx) => {
      const nodes = await placeReplicas(trx, service.org_id, service.replicas);
      const rows = nodes.map((nodeId, index) => ({
        id: newId(),
        service_id: service.id,
        run_id: this.runId,
        node_id: nodeId,
        container_name: containerName(service.id, this.runId, this.job.attempts, index),
        port: service.port,
      }));
      return trx.insertInto('service_replicas').values(rows).returningAll().execute();
    });
  }

  /**
   * The image on each replica's node: pinned, the service's image, or its
   * project's current pre-built one there (built first when missing). The
   * run records the first replica's.
   */
  private async resolveImages(service: ServiceRow, pinned: string | null, placed: ReplicaRow[]) {
    const images = new Map<string, string>();
    const source = service.source;
    for (const { node_id: nodeId } of placed) {
      if (images.has(nodeId)) continue;
      if (pinned !== null) images.set(nodeId, pinned);
      else if (source.type === 'image') images.set(nodeId, source.image);
      else {
        const project = await findProject(this.ctx.db, service.org_id, source.projectId);
        if (project === undefined) throw new Error("the service's project was deleted");
        const say = (line: string) => this.say(line);
        images.set(nodeId, await projectImage(this.ctx, project, nodeId, say, this.signal));
      }
    }
    const image = images.get(placed[0]?.node_id ?? '');
    if (image === undefined) throw new Error('no replica was placed');
    await jobRuns.startRun(this.ctx.db, this.runId, image);
    this.say(`image ${image}${pinned === null ? '' : ' (deployed again)'}`);
    return { image, images };
  }

  /** The hook, as a run of its own under the deploy: it must exit 0 for the deploy to go on. */
  private async preDeploy(service: ServiceRow, image: string, placed: ReplicaRow[]) {
    const hook = service.pre_deploy;
    const first = placed[0];
    if (hook === null || first === undefined) return;
    const db = this.ctx.db;
    const hookRun = await jobRuns.insertRun(db, service, {
      kind: 'pre_deploy',
      image,
      parentId: this.runId,
    });
    await jobRuns.startRun(db, hookRun.id);
    this.say(`pre-deploy hook: ${hook.command}`);
    const output = new RunOutput(db, hookRun.id);
    let result: Awaited<ReturnType<typeof runOneOff>>;
    try {
      // Removed once this deploy ends, whichever process is running it then (a killed process
      // leaves its hook container running).
      await queueRemovals(db, [
        { nodeId: first.node_id, containerName: HOOK_NAME(this.runId), jobId: this.job.id },
      ]);
      result = await runOneOff({
        peer: await reachWhenBack(this.ctx, first.node_id, this.signal),
        name: HOOK_NAME(this.runId),
        image,
        labels: serviceLabels(service, this.runId),
        env: await serviceEnvironment(this.ctx, service),
        command: hook.command,
        timeoutSeconds: hook.timeoutSeconds,
        signal: this.signal,
        output: {
          write: (chunk) => {
            output.write(chunk);
            this.output.write(chunk);
          },
        },
      });
    } catch (error) {
      await output.flush().catch(() => {});
      if (this.signal.aborted) throw error;
      await jobRuns.endRun(db, hookRun.id, { status: 'failed', reason: message(error) });
      throw new Error(`pre-deploy hook could not run: ${message(error)}`);
    }
    await output.flush();
    const reason = result.timedOut
      ? `pre-deploy hook timed out after ${hook.timeoutSeconds} s`
      : result.exitCode === 0
        ? null
        : `pre-deploy hook exited with code ${result.exitCode}`;
    await jobRuns.endRun(db, hookRun.id, {
      status: reason === null ? 'succeeded' : 'failed',
      reason,
      exitCode: result.exitCode,
    });
    if (reason !== null) throw new Error(`${reason}; no traffic was moved`);
    this.say('pre-deploy hook exited 0');
  }

  private async startAll(service: ServiceRow, images: Map<string, string>, placed: ReplicaRow[]) {
    const env = await serviceEnvironment(this.ctx, service);
    const labels = serviceLabels(service, this.runId);
    const total = placed.length;
    await Promise.all(
      placed.map(async (replica, index) => {
        const image = images.get(replica.node_id) ?? '';
        await startReplica(this.ctx, service, replica, { image, env, labels }, this.signal);
        this.say(`replica ${index + 1}/${total} started on node ${replica.node_id}`);
      }),
    );
    for (const [index, replica] of placed.entries()) {
      const label = `replica ${index + 1}/${total}`;
      await waitHealthy(this.ctx, service, replica, label, this.signal);
      this.say(`${label} healthy`);
    }
  }

  /** In one transaction: the new replicas serve, the old ones drain, the service runs this deploy. */
  private async switchTraffic(service: ServiceRow): Promise<void> {
    await inTransaction(this.ctx.db, async (trx) => {
      const locked = await runs.lockService(trx, service.id);
      if (locked === undefined) throw new Error('the service was deleted');
      const now = sql<Date>`now()`;
      await trx
        .updateTable('service_replicas')
        .set({ state: 'draining', updated_at: now })
        .where('service_id', '=', service.id)
        .where('state', '=', 'active')
        .execute();
      await trx
        .updateTable('service_replicas')
        .set({ state: 'active', updated_at: now })
        .where('run_id', '=', this.runId)
        .where('state', '=', 'starting')
        .execute();
      const later = await runs.laterMove(trx, service.id, this.job.id);
      await runs.setServiceState(trx, service.id, later ? locked.state : 'running', null, {
        active_run_id: this.runId,
      });
      await runs.targetsChanged(trx, service.id);
    });
    this.say('traffic switched to the new replicas');
  }

  /** Keeps the replaced replicas for the drain period, then removes every draining one. */
  private async drain(service: ServiceRow): Promise<void> {
    const draining = await this.replicas(service.id, 'draining');
    if (draining.length === 0) return;
    this.say(
      `draining ${draining.length} replaced replica(s) for ${this.ctx.config.serviceDrainMs} ms`,
    );
    await sleep(this.ctx.config.serviceDrainMs, this.signal);
    if (this.signal.aborted) throw new Error('let go');
    const { removed, failures } = await removeReplicas(this.ctx, draining, this.output);
    this.say(
      `removed ${removed} replaced replica(s)` +
        (failures.length > 0 ? `; ${failures.length} more when their node's agent is back` : ''),
    );
  }
}
