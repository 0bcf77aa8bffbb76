import * as z from 'zod';
import { ToolFailure } from '../dispatch.js';
import { resolveOrg } from '../org-resolution.js';
import { defineTool, Ids, NamedRecord, type Tool, type ToolContext, Uuid } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

/**
 * The REST paths of the deployment tools, in one place. Deploying a service
 * is the spec's route, served once the deploy work lands.
 */
export const DEPLOYMENT_PATHS = {
  deployments: (org: string) => `/orgs/${org}/deployments`,
  deployment: (org: string, deployment: string) => `/orgs/${org}/deployments/${deployment}`,
  orgServices: (org: string) => `/orgs/${org}/services`,
  service: (org: string, deployment: string, service: string) =>
    `/orgs/${org}/deployments/${deployment}/services/${service}`,
  jobRun: (org: string, run: string) => `/orgs/${org}/job-runs/${run}`,
} as const;

const Deployment = NamedRecord.extend({
  description: z.string().nullable(),
  state: z.string(),
  serviceCount: z.number(),
}).describe('A deployment: a group of services started, stopped and deployed together.');

const Service = NamedRecord.extend({
  deploymentId: z.string(),
  accessControl: z.unknown(),
}).describe('A service of a deployment.');

const JobRun = z
  .looseObject({
    id: z.string(),
    serviceId: z.string(),
    kind: z.string().describe('deploy, pre_deploy or cron.'),
    status: z.string().describe('queued, running, succeeded, failed or cancelled.'),
    reason: z.string().nullable(),
    exitCode: z.number().nullable(),
  })
  .describe('A deploy, pre-deploy hook or cron run.');

const JobRunPage = z.object({ runs: z.array(JobRun), nextBefore: z.string().nullable() });

const ServiceRef = {
  orgId: Ids.orgId,
  deploymentId: Ids.deploymentId.optional().describe('Its deployment; looked up when left out.'),
  serviceId: Ids.serviceId,
};

/** The path of a service given by id, its deployment looked up when not given. */
async function servicePath(
  ctx: ToolContext,
  tool: string,
  ref: { orgId?: string | undefined; deploymentId?: string | undefined; serviceId: string },
): Promise<string> {
  const org = await resolveOrg(ctx, tool, ref.orgId);
  if (ref.deploymentId !== undefined) {
    return DEPLOYMENT_PATHS.service(org, ref.deploymentId, ref.serviceId);
  }
  const services = z
    .array(Service)
    .parse(
      await ctx.dispatcher.read(tool, { method: 'GET', path: DEPLOYMENT_PATHS.orgServices(org) }),
    );
  const service = services.find((candidate) => candidate.id === ref.serviceId);
  if (service === undefined) {
    throw new ToolFailure(
      `not_found: service ${ref.serviceId} not found. get_deployment or search show the services you can see.`,
    );
  }
  return DEPLOYMENT_PATHS.service(org, service.deploymentId, ref.serviceId);
}

function text(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The last `count` lines (a final newline ends the last line, it does not start one). */
function lastLines(output: string, count: number): string {
  const lines = output.split('\n');
  const ended = lines.at(-1) === '';
  const kept = lines.slice(-(count + (ended ? 1 : 0)));
  return kept.join('\n');
}

export const deploymentTools: readonly Tool[] = [
  defineTool({
    name: 'list_deployments',
    title: 'List deployments',
    description:
      'The deployments of an organization, with their state and service count; query filters by name. Needs deployments:read.',
    input: {
      orgId: Ids.orgId,
      query: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe('Part of the name.')
        .meta({ examples: ['api'] }),
    },
    output: { deployments: z.array(Deployment) },
    annotations: READ,
    run: async (ctx, { orgId, query }) => {
      const org = await resolveOrg(ctx, 'list_deployments', orgId);
      const body = await ctx.dispatcher.read('list_deployments', {
        method: 'GET',
        path: DEPLOYMENT_PATHS.deployments(org),
        query: { q: query },
      });
      return { deployments: z.array(Deployment).parse(body) };
    },
  }),
  defineTool({
    name: 'get_deployment',
    title: 'Get a deployment',
    description:
      'One deployment with its services (their source, port, replicas, access control and URL). Needs deployments:read.',
    input: { orgId: Ids.orgId, deploymentId: Ids.deploymentId },
    output: { deployment: Deployment, services: z.array(Service) },
    annotations: READ,
    run: async (ctx, { orgId, deploymentId }) => {
      const org = await resolveOrg(ctx, 'get_deployment', orgId);
      const path = DEPLOYMENT_PATHS.deployment(org, deploymentId);
      const deployment = await ctx.dispatcher.read('get_deployment', { method: 'GET', path });
      const services = await ctx.dispatcher.read('get_deployment', {
        method: 'GET',
        path: `${path}/services`,
      });
      return {
        deployment: Deployment.parse(deployment),
        services: z.array(Service).parse(services),
      };
    },
  }),
  defineTool({
    name: 'deploy_service',
    title: 'Deploy a service',
    description:
      'Deploys a service again with its current configuration (a job run: image, pre-deploy hook, new containers, ' +
      'traffic moved when healthy). Answers the job run; follow it with list_job_runs and get_job_run_logs. Needs deployments:write.',
    input: ServiceRef,
    output: { jobRun: JobRun.optional(), response: z.unknown().optional() },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: async (ctx, ref) => {
      const path = await servicePath(ctx, 'deploy_service', ref);
      const body = await ctx.dispatcher.read('deploy_service', {
        method: 'POST',
        path: `${path}/deploy`,
      });
      const run = JobRun.safeParse(body);
      return run.success ? { jobRun: run.data } : { response: body };
    },
  }),
  defineTool({
    name: 'get_service_logs',
    title: "Read a service's logs",
    description: "The last lines of a deployed service's container output. Needs deployments:read.",
    input: { ...ServiceRef, tail: Ids.tail },
    output: { logs: z.string() },
    annotations: READ,
    text: (result) => result.logs,
    run: async (ctx, { tail, ...ref }) => {
      const path = await servicePath(ctx, 'get_service_logs', ref);
      const body = await ctx.dispatcher.read('get_service_logs', {
        method: 'GET',
        path: `${path}/logs`,
        query: { tail: tail ?? 200 },
      });
      return { logs: text(body) };
    },
  }),
  defineTool({
    name: 'list_job_runs',
    title: 'List job runs',
    description:
      'Deploy, pre-deploy hook and cron runs of a service (or of every service of a deployment), newest ' +
      'first, with kind, status, reason and exit code; pass nextBefore as before for older ones. ' +
      "get_job_run_logs reads a run's output. Needs deployments:read.",
    input: {
      orgId: Ids.orgId,
      deploymentId: Ids.deploymentId
        .optional()
        .describe('The deployment; with serviceId alone it is looked up.'),
      serviceId: Ids.serviceId.optional().describe('Only this service.'),
      limit: z.number().int().min(1).max(100).optional().describe('Default 20.'),
      before: Uuid().optional().describe('nextBefore of the previous page.'),
    },
    output: { jobRuns: z.array(JobRun), nextBefore: z.string().nullable() },
    annotations: READ,
    run: async (ctx, { orgId, deploymentId, serviceId, limit, before }) => {
      let path: string;
      if (serviceId !== undefined) {
        path = await servicePath(ctx, 'list_job_runs', { orgId, deploymentId, serviceId });
      } else if (deploymentId !== undefined) {
        const org = await resolveOrg(ctx, 'list_job_runs', orgId);
        path = DEPLOYMENT_PATHS.deployment(org, deploymentId);
      } else {
        throw new ToolFailure('list_job_runs needs serviceId or deploymentId.');
      }
      const page = JobRunPage.parse(
        await ctx.dispatcher.read('list_job_runs', {
          method: 'GET',
          path: `${path}/job-runs`,
          query: { limit, before },
        }),
      );
      return { jobRuns: page.runs, nextBefore: page.nextBefore };
    },
  }),
  defineTool({
    name: 'get_job_run_logs',
    title: "Read a job run's output",
    description:
      'A job run (deploy, hook or cron) with its status and exit code, and its output as kept ' +
      '(stdout and stderr as they came, at most 1 MiB; a running run answers what it wrote so far). Needs deployments:read.',
    input: {
      orgId: Ids.orgId,
      runId: Uuid().describe('The job run (list_job_runs shows ids).'),
      tail: Ids.tail.describe('Only the last N lines (default: all).'),
    },
    output: { jobRun: JobRun, output: z.string() },
    annotations: READ,
    text: (result) => result.output,
    run: async (ctx, { orgId, runId, tail }) => {
      const org = await resolveOrg(ctx, 'get_job_run_logs', orgId);
      const path = DEPLOYMENT_PATHS.jobRun(org, runId);
      const record = JobRun.parse(
        await ctx.dispatcher.read('get_job_run_logs', { method: 'GET', path }),
      );
      const output = text(
        await ctx.dispatcher.read('get_job_run_logs', { method: 'GET', path: `${path}/output` }),
      );
      return { jobRun: record, output: tail === undefined ? output : lastLines(output, tail) };
    },
  }),
];
