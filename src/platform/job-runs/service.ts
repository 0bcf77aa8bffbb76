import type { Database } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import { deploymentInOrg } from '../deployments/lookup.js';
import { enqueueJob } from '../job-queue/queue.js';
import { ServiceJobs } from '../services/job-kinds.js';
import { serviceInDeployment } from '../services/lookup.js';
import { readRunOutput } from './output.js';
import type { JobRunRow, RunFilter } from './repository.js';
import * as repository from './repository.js';
import { JOB_RUN_PAGE_DEFAULT, type JobRun, type JobRunPage, type JobRunQuery } from './schemas.js';

/**
 * The one writer of job_runs and their output, for the modules that run them
 * (deploys, hooks, cron): they call these and write no run themselves.
 */
export {
  cancelChildren,
  endRun,
  findRun,
  imageWasDeployed,
  insertCronTick,
  insertRun,
  type JobRunRow,
  recordedImage,
  resetOutput,
  startRun,
} from './repository.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export function toJobRun(row: JobRunRow): JobRun {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    serviceId: row.service_id,
    kind: row.kind,
    jobName: row.job_name,
    parentId: row.parent_id,
    status: row.status,
    reason: row.reason,
    exitCode: row.exit_code,
    image: row.image,
    scheduledAt: iso(row.scheduled_at),
    createdAt: row.created_at.toISOString(),
    startedAt: iso(row.started_at),
    endedAt: iso(row.ended_at),
    outputBytes: row.output_bytes,
    outputTruncated: row.output_truncated,
  };
}

/** The runs of a deployment, or of one of its services: newest first, in keyset pages. */
export async function listRuns(
  db: Database,
  access: OrgAccess,
  where: { deploymentId: string; serviceId?: string },
  query: JobRunQuery,
): Promise<JobRunPage> {
  if (where.serviceId === undefined) await deploymentInOrg(db, access, where.deploymentId);
  else await serviceInDeployment(db, access, where.deploymentId, where.serviceId);
  const filter: RunFilter = {
    orgId: access.orgId,
    ...where,
    kinds: query.kind,
    statuses: query.status,
  };
  let before: JobRunRow | undefined;
  if (query.before !== undefined) {
    before = await repository.findRunIn(db, filter, query.before);
    if (before === undefined) {
      throw badRequest('invalid_cursor', '`before` is not a run of this list', {
        before: query.before,
      });
    }
  }
  const limit = query.limit ?? JOB_RUN_PAGE_DEFAULT;
  const rows = await repository.listRuns(db, filter, { limit: limit + 1, before });
  const runs = rows.slice(0, limit).map(toJobRun);
  const last = runs.at(-1);
  return { runs, nextBefore: rows.length > limit && last !== undefined ? last.id : null };
}

async function runInOrg(db: Database, access: OrgAccess, runId: string): Promise<JobRunRow> {
  const row = await repository.findRun(db, runId);
  if (row === undefined || row.org_id !== access.orgId) throw notFound('Job run');
  return row;
}

export async function getRun(db: Database, access: OrgAccess, runId: string): Promise<JobRun> {
  return toJobRun(await runInOrg(db, access, runId));
}

/** The output kept so far, as bytes in order. */
export async function runOutputBytes(
  db: Database,
  access: OrgAccess,
  runId: string,
): Promise<Buffer> {
  const row = await runInOrg(db, access, runId);
  const chunks = await readRunOutput(db, row.id);
  return Buffer.concat(chunks.map((chunk) => chunk.data));
}

/**
 * Runs one of a running service's cron jobs now, outside its schedule: a run
 * of kind `cron` without `scheduledAt`, queued like a scheduled one (any
 * server process runs it, in a one-off container of the serving image).
 */
export async function runCronJobNow(
  db: Database,
  access: OrgAccess,
  where: { deploymentId: string; serviceId: string; jobName: string },
): Promise<JobRun> {
  // Locked: a stop or a deploy settles before or after this run is queued, not during.
  const row = await serviceInDeployment(db, access, where.deploymentId, where.serviceId, true);
  if (!row.cron_jobs.some((job) => job.name === where.jobName)) {
    throw notFound('Cron job', { jobName: where.jobName });
  }
  if (row.state !== 'running' || row.active_run_id === null) {
    throw conflict('service_not_running', 'The service is not running: deploy or start it first');
  }
  const run = await repository.insertRun(db, row, { kind: 'cron', jobName: where.jobName });
  await enqueueJob(db, {
    kind: ServiceJobs.cron,
    nodeId: null,
    targetId: run.id,
    payload: { runId: run.id },
  });
  return toJobRun(run);
}
