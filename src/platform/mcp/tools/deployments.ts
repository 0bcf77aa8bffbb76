import Type, { type Static } from 'typebox';
import { Uuid } from '../../../http/schemas.js';
import { Deployment, NameQuery } from '../../deployments/schemas.js';
import { JobRun, JobRunPage, JobRunQuery } from '../../job-runs/schemas.js';
import { Service } from '../../services/schemas.js';
import { ToolFailure } from '../dispatch.js';
import { resolveOrg } from '../org-resolution.js';
import { ShownDeployment, ShownJobRun, ShownService } from '../records.js';
import { Args, annotated, defineTool, Ids, Result, type Tool, type ToolContext } from '../tool.js';
import { conforms } from '../values.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Deployments = Type.Array(Deployment);
const Services = Type.Array(Service);

const ServiceRef = {
  orgId: Ids.orgId,
  deploymentId: Type.Optional(
    annotated(Ids.deploymentId, { description: 'Its deployment; looked up when left out.' }),
  ),
  serviceId: Ids.serviceId,
};

interface ServiceParams {
  orgId: string;
  deploymentId: string;
  serviceId: string;
}

/** The path parameters of a service given by id, its deployment looked up when not given. */
async function serviceParams(
  ctx: ToolContext,
  tool: string,
  ref: { orgId?: string | undefined; deploymentId?: string | undefined; serviceId: string },
): Promise<ServiceParams> {
  const orgId = await resolveOrg(ctx, tool, ref.orgId);
  const { serviceId } = ref;
  if (ref.deploymentId !== undefined) return { orgId, deploymentId: ref.deploymentId, serviceId };
  const services = await ctx.dispatcher.readAs(
    tool,
    { operation: 'searchServices', params: { orgId } },
    Services,
  );
  const service = services.find((candidate) => candidate.id === serviceId);
  if (service === undefined) {
    throw new ToolFailure(
      `not_found: service ${serviceId} not found. get_deployment or search show the services you can see.`,
    );
  }
  return { orgId, deploymentId: service.deploymentId, serviceId };
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
    input: Args({
      orgId: Ids.orgId,
      query: Type.Optional(
        annotated(NameQuery.properties.q, { description: 'Part of the name.', examples: ['api'] }),
      ),
    }),
    output: Result({ deployments: Type.Array(ShownDeployment) }),
    operations: ['listDeployments'],
    annotations: READ,
    run: async (ctx, { orgId, query }) => {
      const org = await resolveOrg(ctx, 'list_deployments', orgId);
      const deployments = await ctx.dispatcher.readAs(
        'list_deployments',
        { operation: 'listDeployments', params: { orgId: org }, query: { q: query } },
        Deployments,
      );
      return { deployments };
    },
  }),
  defineTool({
    name: 'get_deployment',
    title: 'Get a deployment',
    description:
      'One deployment with its services (their source, port, replicas, access control and URL). Needs deployments:read.',
    input: Args({ orgId: Ids.orgId, deploymentId: Ids.deploymentId }),
    output: Result({ deployment: ShownDeployment, services: Type.Array(ShownService) }),
    operations: ['getDeployment', 'listServices'],
    annotations: READ,
    run: async (ctx, { orgId, deploymentId }) => {
      const org = await resolveOrg(ctx, 'get_deployment', orgId);
      const params = { orgId: org, deploymentId };
      const deployment = await ctx.dispatcher.readAs(
        'get_deployment',
        { operation: 'getDeployment', params },
        Deployment,
      );
      const services = await ctx.dispatcher.readAs(
        'get_deployment',
        { operation: 'listServices', params },
        Services,
      );
      return { deployment, services };
    },
  }),
  defineTool({
    name: 'deploy_service',
    title: 'Deploy a service',
    description:
      'Deploys a service again with its current configuration (a job run: image, pre-deploy hook, new containers, ' +
      'traffic moved when healthy). Answers the job run; follow it with list_job_runs and get_job_run_logs. Needs deployments:write.',
    input: Args(ServiceRef),
    output: Result({ jobRun: Type.Optional(ShownJobRun), response: Type.Optional(Type.Unknown()) }),
    operations: ['searchServices', 'deployService'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: async (ctx, ref) => {
      const params = await serviceParams(ctx, 'deploy_service', ref);
      const body = await ctx.dispatcher.read('deploy_service', {
        operation: 'deployService',
        params: { ...params },
      });
      return conforms(JobRun, body) ? { jobRun: body } : { response: body };
    },
  }),
  defineTool({
    name: 'get_service_logs',
    title: "Read a service's logs",
    description: "The last lines of a deployed service's container output. Needs deployments:read.",
    input: Args({ ...ServiceRef, tail: Ids.tail }),
    output: Result({ logs: Type.String() }),
    operations: ['searchServices', 'getServiceLogs'],
    annotations: READ,
    text: (result) => result.logs,
    run: async (ctx, { tail, ...ref }) => {
      const params = await serviceParams(ctx, 'get_service_logs', ref);
      const body = await ctx.dispatcher.read('get_service_logs', {
        operation: 'getServiceLogs',
        params: { ...params },
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
    input: Args({
      orgId: Ids.orgId,
      deploymentId: Type.Optional(
        annotated(Ids.deploymentId, {
          description: 'The deployment; with serviceId alone it is looked up.',
        }),
      ),
      serviceId: Type.Optional(annotated(Ids.serviceId, { description: 'Only this service.' })),
      limit: Type.Optional(annotated(JobRunQuery.properties.limit, { description: 'Default 20.' })),
      before: Type.Optional(annotated(Uuid, { description: 'nextBefore of the previous page.' })),
    }),
    output: Result({
      jobRuns: Type.Array(ShownJobRun),
      nextBefore: JobRunPage.properties.nextBefore,
    }),
    operations: ['searchServices', 'listServiceJobRuns', 'listDeploymentJobRuns'],
    annotations: READ,
    run: async (ctx, { orgId, deploymentId, serviceId, limit, before }) => {
      const query = { limit, before };
      let page: Promise<Static<typeof JobRunPage>>;
      if (serviceId !== undefined) {
        const params = await serviceParams(ctx, 'list_job_runs', {
          orgId,
          deploymentId,
          serviceId,
        });
        page = ctx.dispatcher.readAs(
          'list_job_runs',
          { operation: 'listServiceJobRuns', params: { ...params }, query },
          JobRunPage,
        );
      } else if (deploymentId !== undefined) {
        const org = await resolveOrg(ctx, 'list_job_runs', orgId);
        page = ctx.dispatcher.readAs(
          'list_job_runs',
          { operation: 'listDeploymentJobRuns', params: { orgId: org, deploymentId }, query },
          JobRunPage,
        );
      } else {
        throw new ToolFailure('list_job_runs needs serviceId or deploymentId.');
      }
      const { runs, nextBefore } = await page;
      return { jobRuns: runs, nextBefore };
    },
  }),
  defineTool({
    name: 'get_job_run_logs',
    title: "Read a job run's output",
    description:
      'A job run (deploy, hook or cron) with its status and exit code, and its output as kept ' +
      '(stdout and stderr as they came, at most 1 MiB; a running run answers what it wrote so far). Needs deployments:read.',
    input: Args({
      orgId: Ids.orgId,
      runId: annotated(Uuid, { description: 'The job run (list_job_runs shows ids).' }),
      tail: Type.Optional(
        annotated(Ids.tail, { description: 'Only the last N lines (default: all).' }),
      ),
    }),
    output: Result({ jobRun: ShownJobRun, output: Type.String() }),
    operations: ['getJobRun', 'getJobRunOutput'],
    annotations: READ,
    text: (result) => result.output,
    run: async (ctx, { orgId, runId, tail }) => {
      const org = await resolveOrg(ctx, 'get_job_run_logs', orgId);
      const params = { orgId: org, runId };
      const jobRun = await ctx.dispatcher.readAs(
        'get_job_run_logs',
        { operation: 'getJobRun', params },
        JobRun,
      );
      const output = text(
        await ctx.dispatcher.read('get_job_run_logs', { operation: 'getJobRunOutput', params }),
      );
      return { jobRun, output: tail === undefined ? output : lastLines(output, tail) };
    },
  }),
];
