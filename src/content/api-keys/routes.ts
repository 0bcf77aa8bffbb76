import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { CreatedWorkspaceApiKey, CreateWorkspaceApiKey, WorkspaceApiKey } from './schemas.js';
import * as service from './service.js';

export function apiKeyRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['API keys']);
  const manage = { action: 'api_keys.manage', app: 'session' } as const;

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/api-keys',
    operationId: 'createWorkspaceApiKey',
    summary: 'Create a workspace API key (admin, signed-in people only)',
    description:
      'The token (`swk_...`) is shown once. The key acts in this workspace only, with its role capped by its ' +
      'creator’s current role; it stops working when the creator leaves. Keys cannot create or delete ' +
      'workspaces, manage members, keys, invitations or apps, link identities or set avatars.',
    body: CreateWorkspaceApiKey,
    response: CreatedWorkspaceApiKey,
    status: 201,
    errors: ['role_above_creator'],
    handler: (trx, access, request) => service.createKey(trx, access, request.body),
  });

  route({
    ...manage,
    method: 'GET',
    url: '/workspaces/:workspaceId/api-keys',
    operationId: 'listWorkspaceApiKeys',
    summary: 'The workspace’s API keys, revoked ones included (admin)',
    response: Type.Array(WorkspaceApiKey),
    handler: (db, access) => service.listKeys(db, access.workspaceId),
  });

  route({
    ...manage,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/api-keys/:keyId',
    operationId: 'revokeWorkspaceApiKey',
    summary: 'Revoke a key (admin); it stops working at once and stays listed',
    response: NoContent,
    handler: (trx, access, request) =>
      service.revokeKey(trx, access.workspaceId, request.params.keyId),
  });
}
