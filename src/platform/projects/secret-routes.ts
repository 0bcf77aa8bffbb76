import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { SecretInfo, SetSecretBody } from '../common/schemas.js';
import * as secrets from './secrets.js';

export function projectSecretRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Projects']);
  const write = { key: ['projects:write', 'secrets:write'], permission: 'secrets.write' } as const;

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId/secrets',
    key: ['projects:read'],
    permission: 'projects.read',
    operationId: 'listProjectSecrets',
    summary: "List a project's secrets",
    description: 'Names only, by name: values are never returned.',
    response: Type.Array(SecretInfo),
    handler: (db, access, request) =>
      secrets.listProjectSecrets(db, access, request.params.projectId),
  });

  route({
    ...write,
    method: 'POST',
    url: '/orgs/:orgId/projects/:projectId/secrets',
    operationId: 'setProjectSecret',
    summary: 'Create or replace a project secret',
    description:
      'Creates the secret (201) or replaces the value of the secret with this name (200, same id). ' +
      'The value is stored encrypted and never returned.',
    body: SetSecretBody,
    response: SecretInfo,
    otherResponses: { 201: SecretInfo },
    errors: ['too_many_secrets'],
    handler: async (trx, access, request, reply) => {
      const { secret, created } = await secrets.setProjectSecret(
        trx,
        ctx.config,
        access,
        request.params.projectId,
        request.body,
      );
      if (created) reply.code(201);
      return secret;
    },
  });

  route({
    ...write,
    method: 'DELETE',
    url: '/orgs/:orgId/projects/:projectId/secrets/:secretId',
    operationId: 'deleteProjectSecret',
    summary: 'Delete a project secret',
    response: NoContent,
    handler: (trx, access, request) =>
      secrets.deleteProjectSecret(trx, access, request.params.projectId, request.params.secretId),
  });
}
