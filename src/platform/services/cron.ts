import { Cron } from 'croner';
import { sql } from 'kysely';
import { inTransaction } from '../../db/transaction.js';
import type { AppContext } from '../../module.js';
import { enqueueJob, type JobRow } from '../job-queue/queue.js';
import { RunOutput } from '../job-runs/output.js';
import * as jobRuns from '../job-runs/service.js';
import { serviceEnvironment, serviceLabels } from './environment.js';
import { ServiceJobs } from './job-kinds.js';
import { runOneOff } from './one-off.js';
import { placeReplicas } from './placement.js';
import { activeReplicas } from './replicas.js';
import * as runs from './runs.js';

/** A cron run may take this long; past it the command is killed and the run fails. */
export const CRON_TIMEOUT_SECONDS = 3600;
/**
 * Ticks older than this (or two scheduler periods, if longer) are not run
 * any more: a scheduler that was away does not fire a burst of late runs.
 */
const LOOKBACK_MS = 10_000;

/** The ticks of `schedule` in (`from`, `to`], oldest first. */
export function dueTicks(schedule: string, from: Date, to: Date): Date[] {
  const cron = new Cron(schedule, { paused: true, timezone: 'UTC' });
  const ticks: Date[] = [];
  let next = cron.nextRun(from);
  while (next !== null && next <= to && ticks.length < 1000) {
    ticks.push(next);
    next = cron.nextRun(next);
  }
  return ticks;
}

/**
 * One round of the scheduler that runs in every server process: for each
 * cron job of each running service, a run for each due tick, inserted with
 * `ON CONFLICT DO NOTHING` on the (service, job, tick) index, and its job in
 * the same transaction: whichever process inserts the tick first queues it,
 * the others insert nothing, so each tick runs once.
 */
export async function scheduleDueRuns(ctx: AppContext, now = new Date()): Promise<number> {
  const services = await ctx.db
    .selectFrom('services')
    .innerJoin('job_runs', 'job_runs.id', 'services.active_run_id')
    .selectAll('services')
    .select('job_runs.created_at as active_since')
    .where('services.state', '=', 'running')
    .where(sql<boolean>`jsonb_array_length(services.cron_jobs) > 0`)
    .execute();
  const lookback = new Date(now.getTime() - Math.max(LOOKBACK_MS, 2 * ctx.config.cronTickMs));
  let queued = 0;
  for (const service of services) {
    // Ticks from before the deploy that runs now are not this version's to run.
    const from = service.active_since > lookback ? service.active_since : lookback;
    for (const job of service.cron_jobs) {
      for (const tick of dueTicks(job.schedule, from, now)) {
        queued += await inTransaction(ctx.db, async (trx) => {
          const runId = await jobRuns.insertCronTick(trx, service, {
            jobName: job.name,
            scheduledAt: tick,
          });
          if (runId === undefined) return 0;
          await enqueueJob(trx, {
            kind: ServiceJobs.cron,
            nodeId: null,
            targetId: runId,
            payload: { runId },
          });
          return 1;
        });
      }
    }
  }
  return queued;
}

/** Starts the scheduler of this process; returns its stop. */
export function startCronScheduler(ctx: AppContext): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    scheduleDueRuns(ctx)
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'cron scheduling failed'))
      .finally(() => {
        busy = false;
      });
  }, ctx.config.cronTickMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * A cron run: the job's command in a one-off container of the image the
 * service runs, on a node of one of its replicas, with the service's
 * environment; its output and exit code go to the run.
 */
export async function runCron(ctx: AppContext, job: JobRow, signal: AbortSignal): Promise<void> {
  const runId = job.target_id;
  const run = await jobRuns.findRun(ctx.db, runId);
  if (run === undefined || !['queued', 'running'].includes(run.status)) return;
  const service = await runs.findServiceById(ctx.db, run.service_id);
  const cron = service?.cron_jobs.find((candidate) => candidate.name === run.job_name);
  if (service === undefined || cron === undefined || service.active_run_id === null) {
    await jobRuns.endRun(ctx.db, runId, {
      status: 'cancelled',
      reason: 'the service no longer runs this job',
    });
    return;
  }
  const image = (await jobRuns.findRun(ctx.db, service.active_run_id))?.image ?? null;
  if (image === null) throw new Error('the running deploy recorded no image');
  const nodeId =
    (await activeReplicas(ctx.db, service.id))[0]?.node_id ??
    (await inTransaction(ctx.db, (trx) => placeReplicas(trx, service.org_id, 1)))[0];
  if (nodeId === undefined) throw new Error('no node can run the job');
  if (job.attempts > 1) await jobRuns.resetOutput(ctx.db, runId);
  await jobRuns.startRun(ctx.db, runId, image);
  const output = new RunOutput(ctx.db, runId);
  const result = await runOneOff({
    peer: await ctx.agents.reach(nodeId),
    name: `sparrow-cron-${runId}`,
    image,
    labels: serviceLabels(service, runId),
    env: await serviceEnvironment(ctx, service),
    command: cron.command,
    timeoutSeconds: CRON_TIMEOUT_SECONDS,
    output,
    signal,
  });
  await output.flush();
  const reason = result.timedOut
    ? `timed out after ${CRON_TIMEOUT_SECONDS} s`
    : result.exitCode === 0
      ? null
      : `exited with code ${result.exitCode}`;
  await jobRuns.endRun(ctx.db, runId, {
    status: reason === null ? 'succeeded' : 'failed',
    reason,
    exitCode: result.exitCode,
  });
}
