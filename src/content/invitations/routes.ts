import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
import {
  CreatedInvitation,
  CreateInvitation,
  Invitation,
  InvitationPreview,
  InvitationQuery,
} from './schemas.js';
import * as service from './service.js';

const tags = ['Invitations'];

export function invitationRoutes(router: Router, ctx: AppContext): void {
  router.post('/workspaces/:workspaceId/invitations', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'createInvitation',
      summary: 'Invite an e-mail address with a role (admin, signed-in people only)',
      description:
        'The token (`inv_...`) is shown once and stored as SHA-256; deliver it yourself (no e-mail is sent). ' +
        'Registering (`POST /auth/register`) or signing in with the identity provider (`POST /auth/idp`) with it ' +
        'creates the account, even when registration is by invitation only, and makes it a member with the role; ' +
        'the address must match, case-insensitively. The role is at most the inviter’s (403 `role_above_inviter`).',
      params: IdParams('workspaceId'),
      body: CreateInvitation,
      response: { 201: CreatedInvitation },
    },
    handler: async (request, reply) => {
      const invitation = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'invitations.manage',
        (trx, access) => service.createInvitation(trx, access, request.body),
      );
      return reply.code(201).send(invitation);
    },
  });

  router.get('/workspaces/:workspaceId/invitations', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listInvitations',
      summary: 'The workspace’s invitations, newest first, in every state (admin)',
      params: IdParams('workspaceId'),
      response: { 200: Type.Array(Invitation) },
    },
    handler: (request) =>
      readInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'invitations.manage',
        (db, access) => service.listInvitations(db, access.workspaceId),
      ),
  });

  router.delete('/workspaces/:workspaceId/invitations/:invitationId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'revokeInvitation',
      summary: 'Revoke an invitation (admin); its link dies at once',
      description:
        'Idempotent for a pending or revoked invitation; 409 `invitation_accepted` once used.',
      params: IdParams('workspaceId', 'invitationId'),
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'invitations.manage',
        (trx, access) =>
          service.revokeInvitation(trx, access.workspaceId, request.params.invitationId),
      );
      return reply.code(204).send(null);
    },
  });

  router.get('/auth/invitation', {
    config: { access: 'public' },
    schema: {
      tags,
      operationId: 'previewInvitation',
      summary: 'What an invitation offers: the workspace, the address and the role',
      description:
        'Public: the token is the credential. Answers 404 alike for unknown, expired, revoked and used tokens.',
      querystring: InvitationQuery,
      response: { 200: InvitationPreview },
    },
    handler: (request) => service.previewInvitation(ctx.db, request.query.token),
  });
}
