import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { OrgParams } from '../orgs/schemas.js';
import * as orgs from '../orgs/service.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey, KeyParams } from './schemas.js';
import * as service from './service.js';

const tags = ['API keys'];

export function apiKeyRoutes(router: Router, ctx: AppContext): void {
  router.get('/orgs/:orgId/api-keys', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listApiKeys',
      summary: 'List API keys',
      description:
        'Newest first, revoked keys included. Owners and admins see every key of the organization; ' +
        'other members see the keys they created. Tokens are never returned: only `tokenPrefix`.',
      params: OrgParams,
      response: { 200: Type.Array(ApiKey) },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(
        ctx.db,
        requireUserPrincipal(request),
        request.params.orgId,
      );
      return service.listKeys(ctx.db, access);
    },
  });

  router.post('/orgs/:orgId/api-keys', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'createApiKey',
      summary: 'Create an API key',
      description:
        'Any member can create a personal (`user`) key; an organization (`org`) key needs owner or admin. ' +
        'The answer carries the full `token`, shown this once. A key works in this organization only, ' +
        'never on the content API, and never expires: it is valid until revoked.',
      params: OrgParams,
      body: CreateApiKeyBody,
      response: { 201: CreatedApiKey },
    },
    handler: async (request, reply) => {
      const user = requireUserPrincipal(request);
      const key = await inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, user, request.params.orgId);
        return service.createKey(trx, access, user.userId, request.body);
      });
      return reply.code(201).send(key);
    },
  });

  router.delete('/orgs/:orgId/api-keys/:keyId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key',
      description:
        'The next request with the token is 401. The key stays listed with its `revokedAt`. ' +
        'Members revoke their own keys; owners and admins any key. Revoking a revoked key is 204 again.',
      params: KeyParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(
          trx,
          requireUserPrincipal(request),
          request.params.orgId,
        );
        await service.revokeKey(trx, access, request.params.keyId);
      });
      return reply.code(204).send(null);
    },
  });
}
