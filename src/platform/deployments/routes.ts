import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import {
  CreateDeploymentBody,
  Deployment,
  DeploymentParams,
  NameQuery,
  UpdateDeploymentBody,
} from './schemas.js';
import * as service from './service.js';

export function deploymentRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Deployments']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'listDeployments',
    summary: 'List deployments',
    description:
      'Every deployment of the organization, by name; `q` keeps those whose name contains it.',
    querystring: NameQuery,
    response: Type.Array(Deployment),
    handler: (db, access, request) => service.listDeployments(db, access, request.query),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/deployments',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'createDeployment',
    summary: 'Create a deployment',
    description:
      'A named group of services that start, stop and deploy together, with environment variables and ' +
      'write-only secrets every service gets. Any member may create one; names are unique within the ' +
      'organization, whatever their case. `secrets` need owner or admin (and `secrets:write` for a key).',
    body: CreateDeploymentBody,
    response: Deployment,
    status: 201,
    errors: [
      'deployment_name_taken',
      'insufficient_role',
      'duplicate_secret_name',
      'too_many_secrets',
    ],
    handler: (trx, access, request) =>
      service.createDeployment(trx, ctx.config, access, request.body),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/deployments/:deploymentId',
    key: ['deployments:read'],
    permission: 'deployments.read',
    operationId: 'getDeployment',
    summary: 'Get a deployment',
    description: 'Secrets are listed by name; their values are never returned.',
    params: DeploymentParams,
    response: Deployment,
    handler: (db, access, request) =>
      service.getDeployment(db, access, request.params.deploymentId),
  });

  route({
    method: 'PATCH',
    url: '/orgs/:orgId/deployments/:deploymentId',
    key: ['deployments:write'],
    permission: 'deployments.write',
    operationId: 'updateDeployment',
    summary: 'Update a deployment',
    description:
      'Touches only the fields sent. `env` is replaced as a whole (`{}` empties it); an empty or ' +
      'whitespace `description` clears it to null; an omitted field is never erased. `secrets` is a list ' +
      'of changes: a string `value` creates or replaces the secret of that name, null removes it, names ' +
      'not mentioned are kept; writing secrets needs owner or admin, and an API key needs `secrets:write` ' +
      'in addition to `deployments:write`. Running services see the change at their next deploy.',
    params: DeploymentParams,
    body: UpdateDeploymentBody,
    response: Deployment,
    errors: [
      'deployment_name_taken',
      'insufficient_role',
      'duplicate_secret_name',
      'too_many_secrets',
    ],
    handler: (trx, access, request) =>
      service.updateDeployment(trx, ctx.config, access, request.params.deploymentId, request.body),
  });

  route({
    method: 'DELETE',
    url: '/orgs/:orgId/deployments/:deploymentId',
    key: ['deployments:write'],
    permission: 'deployments.delete',
    operationId: 'deleteDeployment',
    summary: 'Delete a deployment',
    description:
      'Deletes its services and secrets with it. Owner or admin only. Refused (409 ' +
      '`deployment_running`) while a service runs or moves: stop the deployment first.',
    params: DeploymentParams,
    response: NoContent,
    errors: ['insufficient_role', 'deployment_running'],
    handler: (trx, access, request) =>
      service.deleteDeployment(trx, access, request.params.deploymentId),
  });
}
