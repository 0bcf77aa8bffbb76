import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal, requireUserPrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import {
  AddMemberBody,
  ChangeRoleBody,
  CreateOrganizationBody,
  Member,
  MemberParams,
  Organization,
  OrgParams,
} from './schemas.js';
import * as service from './service.js';

const tags = ['Organizations'];

export function orgRoutes(router: Router, ctx: AppContext): void {
  router.get('/orgs', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listOrganizations',
      summary: "The caller's organizations",
      description:
        'A person sees the organizations they belong to, by name; an API key sees its own organization only.',
      response: { 200: Type.Array(Organization) },
    },
    handler: async (request) => service.listOrganizations(ctx.db, requirePrincipal(request)),
  });

  router.post('/orgs', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'createOrganization',
      summary: 'Create an organization',
      description: 'The caller becomes its first owner.',
      body: CreateOrganizationBody,
      response: { 201: Organization },
    },
    handler: async (request, reply) => {
      const principal = requireUserPrincipal(request);
      const org = await inTransaction(ctx.db, (trx) =>
        service.createOrganization(trx, principal.userId, request.body),
      );
      return reply.code(201).send(org);
    },
  });

  router.get('/orgs/:orgId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getOrganization',
      summary: 'Get an organization',
      description:
        'An organization the caller does not belong to answers 404, as if it did not exist.',
      params: OrgParams,
      response: { 200: Organization },
    },
    handler: async (request) => {
      const access = await service.orgAccess(
        ctx.db,
        requirePrincipal(request),
        request.params.orgId,
      );
      return service.getOrganization(ctx.db, access);
    },
  });

  router.get('/orgs/:orgId/members', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'listMembers',
      summary: 'List the members of an organization',
      description: 'In the order they joined. Any member may list them.',
      params: OrgParams,
      response: { 200: Type.Array(Member) },
    },
    handler: async (request) => {
      const access = await service.orgAccess(
        ctx.db,
        requirePrincipal(request),
        request.params.orgId,
      );
      return service.listMembers(ctx.db, access);
    },
  });

  router.post('/orgs/:orgId/members', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'addMember',
      summary: 'Add an existing account to the organization',
      description:
        'Needs owner or admin; granting `owner` needs an owner. An unknown e-mail is 404 `account_not_found`, ' +
        'a member already present 409 `already_member`.',
      params: OrgParams,
      body: AddMemberBody,
      response: { 201: Member },
    },
    handler: async (request, reply) => {
      const member = await inTransaction(ctx.db, async (trx) => {
        const access = await service.orgAccess(
          trx,
          requirePrincipal(request),
          request.params.orgId,
        );
        return service.addMember(trx, access, request.body);
      });
      return reply.code(201).send(member);
    },
  });

  router.patch('/orgs/:orgId/members/:userId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'changeMemberRole',
      summary: "Change a member's role",
      description:
        'Needs owner or admin; anything that grants or takes away `owner` needs an owner. ' +
        'Demoting the last owner is 409 `last_owner`.',
      params: MemberParams,
      body: ChangeRoleBody,
      response: { 200: Member },
    },
    handler: async (request) =>
      inTransaction(ctx.db, async (trx) => {
        const access = await service.orgAccess(
          trx,
          requirePrincipal(request),
          request.params.orgId,
        );
        return service.changeMemberRole(trx, access, request.params.userId, request.body.role);
      }),
  });

  router.delete('/orgs/:orgId/members/:userId', {
    config: { access: 'session' },
    schema: {
      tags,
      operationId: 'removeMember',
      summary: 'Remove a member, or leave',
      description:
        'Any member may remove themselves; removing someone else needs owner or admin (owner for an owner). ' +
        'The last owner cannot leave or be removed (409 `last_owner`). ' +
        'The personal API keys of a member who leaves stop working at once, and stay dead if they come back.',
      params: MemberParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await inTransaction(ctx.db, async (trx) => {
        const access = await service.orgAccess(
          trx,
          requirePrincipal(request),
          request.params.orgId,
        );
        await service.removeMember(trx, access, request.params.userId);
      });
      return reply.code(204).send(null);
    },
  });
}
