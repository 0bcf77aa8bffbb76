import Type from 'typebox';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { socketRoutes } from '../access/socket-route.js';
import { FOLLOWERS } from '../common/follower-quota.js';
import { DeploymentParams } from '../deployments/schemas.js';
import { ServiceParams } from '../services/schemas.js';
import { followRun } from './follow.js';
import { JOB_RUN_OUTPUT_CAP } from './output.js';
import {
  CronJobParams,
  JobRun,
  JobRunPage,
  JobRunQuery,
  RunParams,
  RunSocketParams,
} from './schemas.js';
import * as service from './service.js';

const WHAT_A_RUN_IS =
  'Every deploy, pre-deploy hook and cron run of a service is a job run. Its output (stdout and ' +
  `stderr as they came) is kept in the database up to ${JOB_RUN_OUTPUT_CAP} bytes (1 MiB) per run, ` +
  'so that it can be replayed after its containers are gone; what a run writes past the cap is ' +
  'dropped and the run says `outputTruncated: true`. Runs are kept as long as their service.';

const LIST =
  'Newest first, in pages: `limit` (default 20, at most 100), then `before` set to `nextBefore` for ' +
  'the next page. `kind` and `status` filter (repeat one to accept several values).\n\n' +
  WHAT_A_RUN_IS;

export function jobRunRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Job runs']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments/:deploymentId/job-runs',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'listDeploymentJobRuns',
    summary: 'List the job runs of a deployment',
    description: `The runs of every service of the deployment. ${LIST}`,
    params: DeploymentParams,
    querystring: JobRunQuery,
    response: JobRunPage,
    errors: ['invalid_cursor'],
    handler: (db, access, request) =>
      service.listRuns(db, access, { deploymentId: request.params.deploymentId }, request.query),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId/cron-jobs/:jobName/run',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'runCronJob',
    summary: 'Run a cron job now',
    description:
      "Runs one of the service's cron jobs at once, outside its schedule, and answers 202 with the " +
      'queued run (kind `cron`, `scheduledAt` null); follow it at `GET /api/job-runs/{runId}/logs`. ' +
      'The service must be running (409 `service_not_running`): the job runs in a one-off container ' +
      "of the image it serves, with its environment. A name the service's `cronJobs` do not list is a 404.\n\n" +
      WHAT_A_RUN_IS,
    params: CronJobParams,
    response: JobRun,
    status: 202,
    errors: ['service_not_running'],
    handler: (trx, access, request) => service.runCronJobNow(trx, access, request.params),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId/job-runs',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'listServiceJobRuns',
    summary: 'List the job runs of a service',
    description: LIST,
    params: ServiceParams,
    querystring: JobRunQuery,
    response: JobRunPage,
    errors: ['invalid_cursor'],
    handler: (db, access, request) =>
      service.listRuns(
        db,
        access,
        { deploymentId: request.params.deploymentId, serviceId: request.params.serviceId },
        request.query,
      ),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/job-runs/:runId',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'getJobRun',
    summary: 'Get a job run',
    description:
      'Its kind, status (with the reason when it failed), exit code, image, times and how much ' +
      'output it kept. Read the output with `GET .../job-runs/{runId}/output`, or follow it live ' +
      `over \`GET /api/job-runs/{runId}/logs\`.\n\n${WHAT_A_RUN_IS}`,
    params: RunParams,
    response: JobRun,
    handler: (db, access, request) => service.getRun(db, access, request.params.runId),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/job-runs/:runId/output',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'getJobRunOutput',
    summary: "A job run's output",
    description:
      'The output kept so far (stdout and stderr interleaved as they came), as text/plain; a ' +
      'running run answers with what it has written until now.\n\n' +
      WHAT_A_RUN_IS,
    params: RunParams,
    produces: ['text/plain'],
    response: Type.String({ description: 'text/plain' }),
    handler: async (db, access, request, reply) => {
      const bytes = await service.runOutputBytes(db, access, request.params.runId);
      reply.type('text/plain; charset=utf-8');
      return bytes.toString('utf8');
    },
  });

  socketRoutes(router, ctx, ['Job runs']).member({
    url: '/job-runs/:runId/logs',
    key: ['deployments:read'],
    permission: 'deployments.read',
    resource: 'Job run',
    operationId: 'followJobRun',
    summary: 'Follow or replay a job run (WebSocket)',
    description:
      "A WebSocket upgrade, authenticated like any call (an unknown run, or another organization's, " +
      'is 404 before the upgrade; a handshake authenticated by the `session` cookie is 403 ' +
      '`origin_not_allowed` unless its `Origin` is the origin of `PUBLIC_URL` or absent). ' +
      `${FOLLOWERS} The server ` +
      'sends JSON text frames: `{"type":"ready","mode":"logs","runId":...,"status":...}`, then the ' +
      'output kept so far from its start in `{"type":"output","data":base64}` frames (the bytes as ' +
      'written), then, while the run goes on, what it writes. When the run has finished: ' +
      '`{"type":"end","status":"succeeded"|"failed"|"cancelled","exitCode":n|null,"reason":...,' +
      '"outputBytes":n,"outputTruncated":bool}` and a close with code 1000. A finished run is ' +
      'replayed and ended at once. Any server process serves it (it reads the database).\n\n' +
      WHAT_A_RUN_IS,
    params: RunSocketParams,
    errors: ['upgrade_required', 'origin_not_allowed', 'too_many_followers'],
    find: (db, request) => service.findRun(db, request.params.runId),
    followers: true,
    prepare: async (_access, run) => run,
    connect: (socket, run) => followRun(ctx, socket, run),
  });
}
