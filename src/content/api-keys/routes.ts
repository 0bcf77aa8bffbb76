import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { CreatedWorkspaceApiKey, CreateWorkspaceApiKey, WorkspaceApiKey } from './schemas.js';
import * as service from './service.js';

const tags = ['API keys'];

export function apiKeyRoutes(router: Router, ctx: AppContext): void {
  router.post('/workspaces/:workspaceId/api-keys', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'createWorkspaceApiKey',
      summary: 'Create a workspace API key (admin, signed-in people only)',
      description:
        'The token (`swk_...`) is shown once. The key acts in this workspace only, with its role capped by its ' +
        'creator’s current role (403 `role_above_creator` above it); it stops working when the creator leaves. ' +
        'Keys cannot create or delete workspaces, manage members, keys, invitations or apps, link identities or set avatars.',
      params: IdParams('workspaceId'),
      body: CreateWorkspaceApiKey,
      response: { 201: CreatedWorkspaceApiKey },
    },
    handler: async (request, reply) => {
      const key = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'api_keys.manage',
        (trx, access) => service.createKey(trx, access, request.body),
      );
      return reply.code(201).send(key);
    },
  });

  router.get('/workspaces/:workspaceId/api-keys', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listWorkspaceApiKeys',
      summary: 'The workspace’s API keys, revoked ones included (admin)',
      params: IdParams('workspaceId'),
      response: { 200: Type.Array(WorkspaceApiKey) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'api_keys.manage', (db, access) =>
        service.listKeys(db, access.workspaceId),
      ),
  });

  router.delete('/workspaces/:workspaceId/api-keys/:keyId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'revokeWorkspaceApiKey',
      summary: 'Revoke a key (admin); it stops working at once and stays listed',
      params: IdParams('workspaceId', 'keyId'),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'api_keys.manage',
        (trx, access) => service.revokeKey(trx, access.workspaceId, request.params.keyId),
      );
      return reply.code(204).send(null);
    },
  });
}
