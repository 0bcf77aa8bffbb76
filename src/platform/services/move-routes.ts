import Type, { type Static } from 'typebox';
import type { Database } from '../../db/schema.js';
import { Strict, Uuid } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import { orgRoutes } from '../access/org-route.js';
import { Deployment, DeploymentParams } from '../deployments/schemas.js';
import { getDeployment } from '../deployments/service.js';
import { type Move, moveDeployment, moveService } from './moves.js';
import { Service, ServiceParams } from './schemas.js';
import { getService } from './service.js';

const ServiceMove = Type.Object(
  {
    service: Service,
    runId: Type.Union([Uuid, Type.Null()], {
      description:
        'The deploy job run this move queued (follow it at `GET /api/job-runs/{runId}/logs`); null when ' +
        'it queued none (a stop, or a start of a service already running).',
    }),
  },
  { title: 'ServiceMove' },
);

const DeploymentMove = Type.Object(
  { deployment: Deployment, services: Type.Array(ServiceMove) },
  { title: 'DeploymentMove' },
);

export const DeployBody = Strict(
  {
    runId: Type.Optional(Uuid),
    image: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  {
    title: 'DeployRequest',
    description:
      'Empty (`{}` or no body): deploy the service as configured now. `runId`: deploy again the image an ' +
      'earlier deploy of this service recorded (a rollback). `image`: the same, naming the image. Not both.',
  },
);
type DeployBody = Static<typeof DeployBody>;

const DEPLOY =
  'A deploy is a job run (kind `deploy`) carried out by any server process: it resolves the image (the ' +
  "service's image, or its project's current pre-built image on each node, built first when missing), runs the pre-deploy hook in a " +
  'one-off container (its own job run, kind `pre_deploy`; a non-zero exit or its time-out fails the deploy ' +
  'before any traffic moves), places `replicas` new containers across the online, not draining nodes with ' +
  "room, waits for each to pass its health check (an HTTP GET from its node's agent answering 2xx or 3xx, " +
  'probed every 250 ms; without one, the port accepting connections) within `graceSeconds`, then in one ' +
  'transaction makes the new replicas serve and the old ones drain; the old ones are removed after ' +
  '`SERVICE_DRAIN_MS`. A new version that never passes is removed and the old one keeps serving: the run ' +
  'fails with the reason, the service stays `running` with `stateReason` saying the last deploy failed ' +
  '(or is `failed` when nothing served before). Moves of one service are queued and run one at a time, in ' +
  'the order asked: a deploy asked while another runs waits for it (no 409). The service is `deploying` ' +
  'from the request on; the run records the image it ran.';

export function moveRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Deployments']);

  const moved = async (
    db: Database,
    access: OrgAccess,
    params: { deploymentId: string; serviceId: string },
    move: Move,
    body: DeployBody = {},
  ) => {
    const result = await moveService(db, access, params, move, body);
    return {
      service: await getService(db, ctx.config, access, params.deploymentId, params.serviceId),
      runId: result.runId,
    };
  };

  route({
    method: 'POST',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId/deploy',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'deployService',
    summary: 'Deploy a service',
    description: `Answers 202 with the service (now \`deploying\`) and the run queued. ${DEPLOY}`,
    params: ServiceParams,
    body: DeployBody,
    response: ServiceMove,
    status: 202,
    errors: ['unknown_deploy'],
    // The body is optional: a POST without one deploys the service as configured.
    options: {
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    handler: (trx, access, request) =>
      moved(trx, access, request.params, 'deploy', request.body ?? {}),
  });

  const serviceMove = (move: Move, summary: string, description: string) =>
    route({
      method: 'POST',
      url: `/orgs/:orgId/deployments/:deploymentId/services/:serviceId/${move}`,
      key: ['deployments:write'],
      permission: 'deployments.write',
      operationId: `${move}Service`,
      summary,
      description,
      params: ServiceParams,
      response: ServiceMove,
      status: 202,
      handler: (trx, access, request) => moved(trx, access, request.params, move),
    });

  serviceMove(
    'start',
    'Start a service',
    'Deploys again the image of the last deploy that succeeded (or, never deployed, the service as ' +
      'configured), like `deploy` with that `image`. A service `running` or `deploying` is left as it is ' +
      '(202, `runId` null).',
  );
  serviceMove(
    'stop',
    'Stop a service',
    'Traffic stops at once, then a job removes every replica: `stopping`, then `stopped` (nothing ' +
      'serves; `start` brings back the last deployed image). A stopped service is left as it is. Queued ' +
      'behind a deploy under way.',
  );

  const deploymentMove = (move: Move, summary: string, description: string) =>
    route({
      method: 'POST',
      url: `/orgs/:orgId/deployments/:deploymentId/${move}`,
      key: ['deployments:write'],
      permission: 'deployments.write',
      operationId: `${move}Deployment`,
      summary,
      description,
      params: DeploymentParams,
      response: DeploymentMove,
      status: 202,
      handler: async (trx, access, request) => {
        const { deploymentId } = request.params;
        const results = await moveDeployment(trx, access, deploymentId, move);
        const services = [];
        for (const result of results) {
          services.push({
            service: await getService(trx, ctx.config, access, deploymentId, result.serviceId),
            runId: result.runId,
          });
        }
        return { deployment: await getDeployment(trx, access, deploymentId), services };
      },
    });

  deploymentMove(
    'deploy',
    'Deploy every service of a deployment',
    `One deploy run per service, queued in one transaction; each service moves on its own (one may fail ` +
      `while the others go on). Answers 202 with the deployment and each service's run. ${DEPLOY}`,
  );
  deploymentMove(
    'start',
    'Start every service of a deployment',
    'Starts each service that is not running or deploying (see the service `start`).',
  );
  deploymentMove(
    'stop',
    'Stop every service of a deployment',
    'Stops each service that is not stopped (see the service `stop`).',
  );
}
