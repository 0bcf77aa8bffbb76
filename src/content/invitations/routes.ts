import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import {
  AcceptedInvitation,
  AcceptInvitation,
  CreatedInvitation,
  CreateInvitation,
  Invitation,
  InvitationPreview,
  InvitationQuery,
} from './schemas.js';
import * as service from './service.js';

export function invitationRoutes(router: Router, ctx: AppContext): void {
  const { route, plain } = workspaceRoutes(router, ctx, ['Invitations']);
  const manage = { action: 'invitations.manage', app: 'session' } as const;

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/invitations',
    operationId: 'createInvitation',
    summary: 'Invite an e-mail address with a role (admin, signed-in people only)',
    description:
      'The token (`inv_...`) is shown once and stored as SHA-256; deliver it yourself (no e-mail is sent). ' +
      'Registering (`POST /auth/register`) or signing in with the identity provider (`POST /auth/idp`) with it ' +
      'creates the account, even when registration is by invitation only, and makes it a member with the role; ' +
      'the address must match, case-insensitively. The role is at most the inviter’s.',
    body: CreateInvitation,
    response: CreatedInvitation,
    status: 201,
    errors: ['role_above_inviter'],
    handler: (trx, access, request) => service.createInvitation(trx, access, request.body),
  });

  route({
    ...manage,
    method: 'GET',
    url: '/workspaces/:workspaceId/invitations',
    operationId: 'listInvitations',
    summary: 'The workspace’s invitations, newest first, in every state (admin)',
    response: Type.Array(Invitation),
    handler: (db, access) => service.listInvitations(db, access.workspaceId),
  });

  route({
    ...manage,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/invitations/:invitationId',
    operationId: 'revokeInvitation',
    summary: 'Revoke an invitation (admin); its link dies at once',
    description: 'Idempotent for a pending or revoked invitation; refused once used.',
    response: NoContent,
    errors: ['invitation_accepted'],
    handler: (trx, access, request) =>
      service.revokeInvitation(trx, access.workspaceId, request.params.invitationId),
  });

  plain({
    method: 'GET',
    url: '/auth/invitation',
    app: 'public',
    operationId: 'previewInvitation',
    summary: 'What an invitation offers: the workspace, the address and the role',
    description:
      'Public: the token is the credential. Answers 404 alike for unknown, expired, revoked and used tokens.',
    querystring: InvitationQuery,
    response: InvitationPreview,
    errors: ['not_found'],
    handler: (request) => service.previewInvitation(ctx.db, request.query.token),
  });

  plain({
    method: 'POST',
    url: '/auth/invitation/accept',
    app: 'session',
    operationId: 'acceptInvitation',
    summary: 'Join a workspace with an invitation, as the signed-in account',
    description:
      'For a person who already has an account (one without registers with the invitation: ' +
      '`POST /auth/register` or `POST /auth/idp`). The invitation must be for the account’s address, ' +
      'case-insensitively; `invitation_invalid` (403) alike for an unknown, expired, revoked, used or ' +
      'other-address invitation. Makes the account a member with the invited role; a member already keeps a ' +
      'higher role (an invitation never demotes). The invitation is used up. Answers the workspace (with its ' +
      'slug, for the web app to open it) and the role.',
    body: AcceptInvitation,
    response: AcceptedInvitation,
    errors: ['invitation_invalid'],
    handler: (request) => {
      const { userId } = requireUserPrincipal(request);
      return inTransaction(ctx.db, (trx) =>
        service.joinWithInvitation(trx, userId, request.body.token),
      );
    },
  });
}
