import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import { IdParams, NoContent, Uuid } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import { fileStorage, removeWorkspaceFiles } from '../files/service.js';
import * as members from './members.js';
import {
  CreateWorkspace,
  DeleteWorkspace,
  InviteMember,
  Member,
  UpdateMyMembership,
  UpdateWorkspace,
  WorkspaceMembership,
} from './schemas.js';
import * as service from './service.js';

const WorkspaceParams = IdParams('workspaceId');

export function workspaceRoutes(router: Router, ctx: AppContext): void {
  const tags = ['Workspaces'];

  router.get('/workspaces', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listWorkspaces',
      summary: 'The workspaces the caller belongs to',
      description: 'A workspace API key sees its own workspace only.',
      response: { 200: Type.Array(WorkspaceMembership) },
    },
    handler: async (request) => {
      const principal = requirePrincipal(request);
      if (principal.kind === 'user') return service.listWorkspaces(ctx.db, principal.userId);
      if ('workspaceId' in principal && typeof principal.workspaceId === 'string') {
        const workspaceId = principal.workspaceId;
        return [
          await readInWorkspace(ctx, request, workspaceId, 'workspace.read', service.getWorkspace),
        ];
      }
      return [];
    },
  });

  router.post('/workspaces', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'createWorkspace',
      summary: 'Create a workspace; the caller becomes its owner',
      description:
        'Creates three default statuses (Todo, In Progress, Done). 409 `slug_taken`. Not for API keys (403).',
      body: CreateWorkspace,
      response: { 201: WorkspaceMembership },
    },
    handler: async (request, reply) => {
      const principal = requirePrincipal(request);
      if (principal.kind !== 'user')
        throw forbidden('session_required', 'Only a person can create a workspace');
      const workspace = await inTransaction(ctx.db, (trx) =>
        service.createWorkspace(trx, principal, request.body),
      );
      return reply.code(201).send(workspace);
    },
  });

  router.get('/workspaces/:workspaceId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWorkspace',
      summary: 'A workspace with the caller’s role',
      description:
        '404 for a workspace that does not exist and for one the caller does not belong to alike.',
      params: WorkspaceParams,
      response: { 200: WorkspaceMembership },
    },
    handler: (request) =>
      readInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'workspace.read',
        service.getWorkspace,
      ),
  });

  router.patch('/workspaces/:workspaceId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateWorkspace',
      summary: 'Rename the workspace or change its cover layout (admin)',
      params: WorkspaceParams,
      body: UpdateWorkspace,
      response: { 200: WorkspaceMembership },
    },
    handler: (request) =>
      writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'workspace.update',
        (trx, access) => service.updateWorkspace(trx, access, request.body),
      ),
  });

  router.delete('/workspaces/:workspaceId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'deleteWorkspace',
      summary: 'Delete the workspace and everything it owns (owner)',
      description:
        'Send the slug to confirm (400 `slug_mismatch`). Removes items, collections, fields, statuses, views, members, ' +
        'keys, files with their bytes and the event log. Cannot be undone.',
      params: WorkspaceParams,
      body: DeleteWorkspace,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'workspace.delete',
        (trx, access) => service.deleteWorkspace(trx, access, request.body.slug),
      );
      await removeWorkspaceFiles(fileStorage(ctx.config), request.params.workspaceId).catch(
        (error: unknown) =>
          request.log.warn({ err: error }, 'workspace deleted but some file bytes remain'),
      );
      return reply.code(204).send(null);
    },
  });

  memberRoutes(router, ctx);
}

function memberRoutes(router: Router, ctx: AppContext): void {
  const tags = ['Members'];

  router.get('/workspaces/:workspaceId/members', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listMembers',
      summary: 'The members of the workspace',
      params: WorkspaceParams,
      response: { 200: Type.Array(Member) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'members.read', (db, access) =>
        members.listMembers(db, access.workspaceId),
      ),
  });

  router.post('/workspaces/:workspaceId/members', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'addMember',
      summary: 'Attach an existing account with a role, or change a member’s role (admin)',
      description:
        '404 when no account has the e-mail. Granting, changing or removing `owner` needs an owner. ' +
        '409 `last_owner` when it would demote the last owner. There is no e-mail invitation here.',
      params: WorkspaceParams,
      body: InviteMember,
      response: { 201: Member },
    },
    handler: async (request, reply) => {
      const member = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'members.manage',
        (trx, access) => members.addMember(trx, access, request.body),
      );
      return reply.code(201).send(member);
    },
  });

  router.patch('/workspaces/:workspaceId/members/me', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'updateMyMembership',
      summary: 'Set or remove the caller’s avatar in this workspace',
      description:
        '400 `unknown_file` or `not_an_image` when the file is not an image of this workspace.',
      params: WorkspaceParams,
      body: UpdateMyMembership,
      response: { 200: Member },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'workspace.read', (trx, access) =>
        members.setMyAvatar(trx, access, request.body.avatarFileId),
      ),
  });

  router.delete('/workspaces/:workspaceId/members/:userId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'removeMember',
      summary: 'Remove a member (admin), or leave the workspace',
      description: '409 `last_owner` for the last owner.',
      params: Type.Object({ workspaceId: Uuid, userId: Uuid }, { additionalProperties: false }),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'members.read',
        (trx, access) => members.removeMember(trx, access, request.params.userId),
      );
      return reply.code(204).send(null);
    },
  });
}
