import Type from 'typebox';
import { NoContent, Strict, Uuid } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { DeploymentParams, NameQuery } from '../deployments/schemas.js';
import { CreateServiceBody, Service, ServiceParams, UpdateServiceBody } from './schemas.js';
import * as services from './service.js';

const WRITE_ERRORS = [
  'service_name_taken',
  'domain_taken',
  'invalid_source',
  'duplicate_cron_job',
  'invalid_schedule',
  'port_required',
  'not_an_org_member',
  'insufficient_role',
  'duplicate_secret_name',
  'too_many_secrets',
] as const;

const SETTINGS =
  "Environment: the deployment's variables, then its secrets, then the service's variables, then its " +
  'secrets (a later one wins on a name). `secrets` need owner or admin (and `secrets:write` for a key). ' +
  '`accessControl: private` lets in only signed-in members (those on `allowlist` when it names anyone) ' +
  "and API keys with `deployments:access` (a personal key's owner must be on `allowlist`); see the " +
  'README, "Private services and custom domains". A `customDomain` answers once verified: the service ' +
  'shows the TXT record to publish (`customDomain.challenge`), then `POST …/verify-domain`.';

export function serviceRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Deployments']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/services',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'searchServices',
    summary: 'List the services of every deployment',
    description:
      'Services of the whole organization, by name; `q` keeps those whose name contains it.',
    params: Strict({ orgId: Uuid }),
    querystring: NameQuery,
    response: Type.Array(Service),
    handler: (db, access, request) =>
      services.listServices(db, ctx.config, access, undefined, request.query),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments/:deploymentId/services',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'listServices',
    summary: 'List the services of a deployment',
    description: 'By name; `q` keeps those whose name contains it.',
    params: DeploymentParams,
    querystring: NameQuery,
    response: Type.Array(Service),
    handler: (db, access, request) =>
      services.listServices(db, ctx.config, access, request.params.deploymentId, request.query),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/deployments/:deploymentId/services',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'createService',
    summary: 'Add a service',
    description:
      `A service runs its image (or its project's built image) as \`replicas\` containers; it is \`stopped\` ` +
      `until its first deploy. Names are unique within the deployment, whatever their case. ${SETTINGS}`,
    params: DeploymentParams,
    body: CreateServiceBody,
    response: Service,
    status: 201,
    errors: [...WRITE_ERRORS],
    handler: (trx, access, request) =>
      services.createService(trx, ctx.config, access, request.params.deploymentId, request.body),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'getService',
    summary: 'Get a service',
    description: 'Secrets are listed by name; their values are never returned.',
    params: ServiceParams,
    response: Service,
    handler: (db, access, request) =>
      services.getService(
        db,
        ctx.config,
        access,
        request.params.deploymentId,
        request.params.serviceId,
      ),
  });

  route({
    method: 'PATCH',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'updateService',
    summary: 'Update a service',
    description:
      'Touches only the fields sent: lists and `env` are replaced as a whole (send them empty to clear), ' +
      'null removes an optional setting, an omitted field is never erased. `secrets` is a list of ' +
      'changes (a string writes, null removes, names not mentioned are kept). Changing `customDomain` ' +
      `starts its verification over. A running service takes the change at its next deploy. ${SETTINGS}`,
    params: ServiceParams,
    body: UpdateServiceBody,
    response: Service,
    errors: [...WRITE_ERRORS],
    handler: (trx, access, request) =>
      services.updateService(
        trx,
        ctx.config,
        access,
        request.params.deploymentId,
        request.params.serviceId,
        request.body,
      ),
  });

  route({
    method: 'DELETE',
    url: '/orgs/:orgId/deployments/:deploymentId/services/:serviceId',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'deleteService',
    summary: 'Remove a service',
    description:
      'Removes it with its secrets. Refused (409 `service_running`) while it runs or moves: stop it first.',
    params: ServiceParams,
    response: NoContent,
    errors: ['service_running'],
    handler: (trx, access, request) =>
      services.deleteService(trx, access, request.params.deploymentId, request.params.serviceId),
  });
}
