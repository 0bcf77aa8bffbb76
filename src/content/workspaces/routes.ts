import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal, requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { authorizeWorkspace } from '../access/authorize.js';
import { workspaceRoutes as declareRoutes } from '../access/workspace-route.js';
import { removeWorkspaceFiles } from '../files/service.js';
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

export function workspaceRoutes(router: Router, ctx: AppContext): void {
  const { route, plain } = declareRoutes(router, ctx, ['Workspaces']);

  plain({
    method: 'GET',
    url: '/workspaces',
    app: 'any-app',
    operationId: 'listWorkspaces',
    summary: 'The workspaces the caller belongs to',
    description: 'A workspace API key or an app sees its own workspace only.',
    response: Type.Array(WorkspaceMembership),
    handler: async (request) => {
      const principal = requirePrincipal(request);
      if (principal.kind === 'user') return service.listWorkspaces(ctx.db, principal.userId);
      if (!('workspaceId' in principal) || typeof principal.workspaceId !== 'string') return [];
      const access = await authorizeWorkspace(
        ctx.db,
        principal,
        principal.workspaceId,
        'workspace.read',
      );
      return [await service.getWorkspace(ctx.db, access)];
    },
  });

  plain({
    method: 'POST',
    url: '/workspaces',
    app: 'session',
    operationId: 'createWorkspace',
    summary: 'Create a workspace; the caller becomes its owner',
    description:
      'Creates three default statuses (Todo, In Progress, Done). `slug_taken` (409) when another workspace ' +
      'has the slug; `slug_reserved` (400) for a slug the web app uses as a path of its own (`sign-in`, ' +
      '`sign-out`, `register`, `invite`, `oauth`, `assets`, `api`, `auth`, `orgs`, `account`): the workspace could not be ' +
      'opened at `/app/{slug}`.',
    body: CreateWorkspace,
    response: WorkspaceMembership,
    status: 201,
    errors: ['slug_taken', 'slug_reserved'],
    handler: (request) => {
      const principal = requireUserPrincipal(request);
      return inTransaction(ctx.db, (trx) =>
        service.createWorkspace(trx, principal, request.body, ctx.eventSinks),
      );
    },
  });

  route({
    method: 'GET',
    url: '/workspaces/:workspaceId',
    action: 'workspace.read',
    app: 'any-app',
    operationId: 'getWorkspace',
    summary: 'A workspace with the caller’s role',
    description:
      '404 for a workspace that does not exist and for one the caller does not belong to alike.',
    response: WorkspaceMembership,
    handler: (db, access) => service.getWorkspace(db, access),
  });

  route({
    method: 'PATCH',
    url: '/workspaces/:workspaceId',
    action: 'workspace.update',
    app: 'refused',
    operationId: 'updateWorkspace',
    summary: 'Rename the workspace or change its cover layout (admin)',
    body: UpdateWorkspace,
    response: WorkspaceMembership,
    handler: (trx, access, request) => service.updateWorkspace(trx, access, request.body),
  });

  route({
    method: 'DELETE',
    url: '/workspaces/:workspaceId',
    action: 'workspace.delete',
    app: 'session',
    operationId: 'deleteWorkspace',
    summary: 'Delete the workspace and everything it owns (owner)',
    description:
      'Send the slug to confirm. Removes items, collections, fields, statuses, views, members, ' +
      'keys, files with their bytes and the event log. Cannot be undone.',
    body: DeleteWorkspace,
    response: NoContent,
    errors: ['slug_mismatch'],
    handler: (trx, access, request) => service.deleteWorkspace(trx, access, request.body.slug),
    afterCommit: (request) => removeWorkspaceFiles(ctx.files, request.params.workspaceId),
  });

  memberRoutes(router, ctx);
}

function memberRoutes(router: Router, ctx: AppContext): void {
  const { route } = declareRoutes(router, ctx, ['Members']);

  route({
    method: 'GET',
    url: '/workspaces/:workspaceId/members',
    action: 'members.read',
    app: ['members:read'],
    operationId: 'listMembers',
    summary: 'The members of the workspace',
    response: Type.Array(Member),
    handler: (db, access) => members.listMembers(db, access.workspaceId),
  });

  route({
    method: 'POST',
    url: '/workspaces/:workspaceId/members',
    action: 'members.manage',
    app: 'session',
    operationId: 'addMember',
    summary: 'Attach an existing account with a role, or change a member’s role (admin)',
    description:
      '404 `account_not_found` when no account has the e-mail (as for an organization). Granting, ' +
      'changing or removing `owner` needs an owner. ' +
      'There is no e-mail invitation here.',
    body: InviteMember,
    response: Member,
    status: 201,
    errors: ['account_not_found', 'last_owner', 'role_above_granter'],
    handler: (trx, access, request) => members.addMember(trx, access, request.body),
  });

  route({
    method: 'PATCH',
    url: '/workspaces/:workspaceId/members/me',
    action: 'workspace.read',
    app: 'session',
    // Any member may set their own avatar: a read-level role, but a write.
    transaction: true,
    operationId: 'updateMyMembership',
    summary: 'Set or remove the caller’s avatar in this workspace',
    body: UpdateMyMembership,
    response: Member,
    errors: ['unknown_file', 'not_an_image'],
    handler: (trx, access, request) => members.setMyAvatar(trx, access, request.body.avatarFileId),
  });

  route({
    method: 'DELETE',
    url: '/workspaces/:workspaceId/members/:userId',
    action: 'members.read',
    app: 'session',
    // Leaving needs membership only; removing someone else is checked by the service.
    transaction: true,
    operationId: 'removeMember',
    summary: 'Remove a member (admin), or leave the workspace',
    response: NoContent,
    errors: ['last_owner'],
    handler: (trx, access, request) => members.removeMember(trx, access, request.params.userId),
  });
}
