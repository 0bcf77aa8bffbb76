import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import type { AppContext } from '../../module.js';
import type { JobRow } from '../job-queue/queue.js';
import * as jobRuns from '../job-runs/service.js';
import { runCron } from './cron.js';
import { Deploy } from './deploy-job.js';
import { ServiceJobs } from './job-kinds.js';
import { queueRemovals, type Removal, removeQueued } from './removals.js';
import { removeReplicas } from './replica-ops.js';
import { activeReplicas, liveReplicas } from './replicas.js';
import * as runs from './runs.js';

function runIdOf(job: JobRow): string {
  const runId = job.payload.runId;
  if (typeof runId !== 'string') throw new Error('the deploy job names no run');
  return runId;
}

/**
 * A deploy that will not finish: its run fails with the reason. The service
 * keeps `running` (with the reason) when replicas of an earlier deploy still
 * serve, else it is `failed`; a move asked after this one decides instead.
 */
async function deployFailed(db: Database, job: JobRow, reason: string): Promise<void> {
  const runId = runIdOf(job);
  await jobRuns.endRun(db, runId, { status: 'failed', reason });
  // The containers it started and never switched to (its process died, or it was interrupted
  // too often) serve nothing: removed now, or when their agent is back.
  const unfinished = await db
    .updateTable('service_replicas')
    .set({ state: 'stopped' })
    .where('run_id', '=', runId)
    .where('state', '=', 'starting')
    .returning(['node_id', 'container_name'])
    .execute();
  await queueRemovals(
    db,
    unfinished.map((row) => ({ nodeId: row.node_id, containerName: row.container_name })),
  );
  const service = await runs.lockService(db, job.target_id);
  if (service === undefined || (await runs.laterMove(db, service.id, job.id))) return;
  const serving = (await activeReplicas(db, service.id)).length > 0;
  await runs.setServiceState(
    db,
    service.id,
    serving ? 'running' : 'failed',
    serving ? `the last deploy failed (the previous one keeps serving): ${reason}` : reason,
  );
}

/** Removes every container of the service; it is `stopped`, and nothing serves. */
async function stopService(ctx: AppContext, job: JobRow): Promise<void> {
  const serviceId = job.target_id;
  await inTransaction(ctx.db, async (trx) => {
    // Traffic first: proxies stop sending before the containers go.
    await trx
      .updateTable('service_replicas')
      .set({ state: 'draining' })
      .where('service_id', '=', serviceId)
      .where('state', '=', 'active')
      .execute();
    await runs.targetsChanged(trx, serviceId);
  });
  // A container whose agent is away now is removed when it is back (queued, `removals.ts`).
  await removeReplicas(ctx, await liveReplicas(ctx.db, serviceId));
  await inTransaction(ctx.db, async (trx) => {
    const service = await runs.lockService(trx, serviceId);
    if (service === undefined || (await runs.laterMove(trx, serviceId, job.id))) return;
    await runs.setServiceState(trx, serviceId, 'stopped', null, { active_run_id: null });
  });
}

/** The containers of a deleted service, by node and name (its rows are gone). */
async function cleanUp(ctx: AppContext, job: JobRow): Promise<void> {
  const containers = Array.isArray(job.payload.containers) ? job.payload.containers : [];
  const removals: Removal[] = [];
  for (const entry of containers) {
    if (typeof entry !== 'object' || entry === null) continue;
    const nodeId = 'nodeId' in entry ? entry.nodeId : undefined;
    const name = 'name' in entry ? entry.name : undefined;
    if (typeof nodeId !== 'string' || typeof name !== 'string') continue;
    removals.push({ nodeId, containerName: name });
  }
  await queueRemovals(ctx.db, removals);
  await removeQueued(ctx, removals);
}

/** Registers the services' moves as job kinds of the application (run by any server process). */
export function registerServiceJobs(ctx: AppContext): void {
  const kinds = ctx.jobs.kinds;
  kinds.registerAnywhere(ServiceJobs.deploy, {
    run: (job, signal) => new Deploy(ctx, job, runIdOf(job), signal).run(),
    fail: deployFailed,
  });
  kinds.registerAnywhere(ServiceJobs.stop, {
    run: (job) => stopService(ctx, job),
    fail: async (db, job, reason) => {
      if (await runs.laterMove(db, job.target_id, job.id)) return;
      await runs.setServiceState(db, job.target_id, 'failed', `stop failed: ${reason}`);
    },
  });
  kinds.registerAnywhere(ServiceJobs.cron, {
    run: (job, signal) => runCron(ctx, job, signal),
    fail: async (db, job, reason) => {
      await jobRuns.endRun(db, job.target_id, { status: 'failed', reason });
    },
  });
  kinds.registerAnywhere(ServiceJobs.cleanup, {
    run: (job) => cleanUp(ctx, job),
    fail: async (_db, job, reason) => {
      ctx.log.warn({ serviceId: job.target_id, reason }, 'containers of a deleted service remain');
    },
  });
}
