import Type from 'typebox';
import { requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { ApiKey, CreateApiKeyBody, CreatedApiKey } from './schemas.js';
import * as service from './service.js';

export function apiKeyRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['API keys']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/api-keys',
    key: 'session',
    permission: 'api_keys.use',
    operationId: 'listApiKeys',
    summary: 'List API keys',
    description:
      'Newest first, revoked keys included. Owners and admins see every key of the organization; ' +
      'other members see the keys they created. Tokens are never returned: only `tokenPrefix`.',
    response: Type.Array(ApiKey),
    handler: (db, access) => service.listKeys(db, access),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/api-keys',
    key: 'session',
    permission: 'api_keys.use',
    operationId: 'createApiKey',
    summary: 'Create an API key',
    description:
      'Any member can create a personal (`user`) key; an organization (`org`) key needs owner or admin. ' +
      'The answer carries the full `token`, shown this once. A key works in this organization only, ' +
      'never on the content API, and never expires: it is valid until revoked.',
    body: CreateApiKeyBody,
    response: CreatedApiKey,
    status: 201,
    errors: ['insufficient_role'],
    handler: (trx, access, request) =>
      service.createKey(trx, access, requireUserPrincipal(request).userId, request.body),
  });

  route({
    method: 'DELETE',
    url: '/orgs/:orgId/api-keys/:keyId',
    key: 'session',
    permission: 'api_keys.use',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key',
    description:
      'The next request with the token is 401. The key stays listed with its `revokedAt`. ' +
      'Members revoke their own keys; owners and admins any key. Revoking a revoked key is 204 again.',
    response: NoContent,
    handler: (trx, access, request) => service.revokeKey(trx, access, request.params.keyId),
  });
}
