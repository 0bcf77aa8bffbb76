import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal, requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes as declareOrgRoutes } from '../access/org-route.js';
import {
  AddMemberBody,
  ChangeRoleBody,
  CreateOrganizationBody,
  Member,
  Organization,
} from './schemas.js';
import * as service from './service.js';

export function orgRoutes(router: Router, ctx: AppContext): void {
  const { route, plain } = declareOrgRoutes(router, ctx, ['Organizations']);

  plain({
    method: 'GET',
    url: '/orgs',
    key: 'any-key',
    operationId: 'listOrganizations',
    summary: "The caller's organizations",
    description:
      'A person sees the organizations they belong to, by name; an API key sees its own organization only.',
    response: Type.Array(Organization),
    handler: (request) => service.listOrganizations(ctx.db, requirePrincipal(request)),
  });

  plain({
    method: 'POST',
    url: '/orgs',
    key: 'session',
    operationId: 'createOrganization',
    summary: 'Create an organization',
    description: 'The caller becomes its first owner.',
    body: CreateOrganizationBody,
    response: Organization,
    status: 201,
    handler: (request) => {
      const { userId } = requireUserPrincipal(request);
      return inTransaction(ctx.db, (trx) => service.createOrganization(trx, userId, request.body));
    },
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId',
    key: 'any-key',
    permission: 'organization.read',
    operationId: 'getOrganization',
    summary: 'Get an organization',
    description:
      'An organization the caller does not belong to answers 404, as if it did not exist.',
    response: Organization,
    handler: (db, access) => service.getOrganization(db, access),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/members',
    key: 'session',
    permission: 'organization.read',
    operationId: 'listOrgMembers',
    summary: 'List the members of an organization',
    description: 'In the order they joined. Any member may list them.',
    response: Type.Array(Member),
    handler: (db, access) => service.listMembers(db, access),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/members',
    key: 'session',
    permission: 'members.manage',
    operationId: 'addOrgMember',
    summary: 'Add an existing account to the organization',
    description: 'Granting `owner` needs an owner.',
    body: AddMemberBody,
    response: Member,
    status: 201,
    errors: ['account_not_found', 'already_member'],
    handler: (trx, access, request) => service.addMember(trx, access, request.body),
  });

  route({
    method: 'PATCH',
    url: '/orgs/:orgId/members/:userId',
    key: 'session',
    permission: 'members.manage',
    operationId: 'changeOrgMemberRole',
    summary: "Change a member's role",
    description: 'Anything that grants or takes away `owner` needs an owner.',
    body: ChangeRoleBody,
    response: Member,
    errors: ['last_owner'],
    handler: (trx, access, request) =>
      service.changeMemberRole(trx, access, request.params.userId, request.body.role),
  });

  route({
    method: 'DELETE',
    url: '/orgs/:orgId/members/:userId',
    key: 'session',
    permission: 'members.leave',
    operationId: 'removeOrgMember',
    summary: 'Remove a member, or leave',
    description:
      'Any member may remove themselves; removing someone else needs owner or admin (owner for an owner). ' +
      'The last owner cannot leave or be removed. ' +
      'The personal API keys of a member who leaves stop working at once, and stay dead if they come back.',
    response: NoContent,
    errors: ['last_owner', 'insufficient_role'],
    handler: (trx, access, request) => service.removeMember(trx, access, request.params.userId),
  });
}
