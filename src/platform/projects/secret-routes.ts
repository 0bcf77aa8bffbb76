import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { SecretInfo, SetSecretBody } from '../common/schemas.js';
import * as orgs from '../orgs/service.js';
import { ProjectParams, ProjectSecretParams } from './schemas.js';
import * as secrets from './secrets.js';

const tags = ['Projects'];

export function projectSecretRoutes(router: Router, ctx: AppContext): void {
  router.get('/orgs/:orgId/projects/:projectId/secrets', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listProjectSecrets',
      summary: "List a project's secrets",
      description: 'Names only, by name: values are never returned.',
      params: ProjectParams,
      response: { 200: Type.Array(SecretInfo) },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return secrets.listProjectSecrets(ctx.db, access, request.params.projectId);
    },
  });

  router.post('/orgs/:orgId/projects/:projectId/secrets', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'setProjectSecret',
      summary: 'Create or replace a project secret',
      description:
        'Creates the secret (201) or replaces the value of the secret with this name (200, same id). ' +
        'Needs owner or admin. The value is stored encrypted and never returned.',
      params: ProjectParams,
      body: SetSecretBody,
      response: { 200: SecretInfo, 201: SecretInfo },
    },
    handler: async (request, reply) => {
      const { secret, created } = await inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, requirePrincipal(request), request.params.orgId);
        return secrets.setProjectSecret(
          trx,
          ctx.config,
          access,
          request.params.projectId,
          request.body,
        );
      });
      return reply.code(created ? 201 : 200).send(secret);
    },
  });

  router.delete('/orgs/:orgId/projects/:projectId/secrets/:secretId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteProjectSecret',
      summary: 'Delete a project secret',
      description: 'Needs owner or admin.',
      params: ProjectSecretParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, requirePrincipal(request), request.params.orgId);
        await secrets.deleteProjectSecret(
          trx,
          access,
          request.params.projectId,
          request.params.secretId,
        );
      });
      return reply.code(204).send(null);
    },
  });
}
