import Type from 'typebox';
import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { OrgParams } from '../orgs/schemas.js';
import * as orgs from '../orgs/service.js';
import { CreateProjectBody, Project, ProjectParams, UpdateProjectBody } from './schemas.js';
import * as service from './service.js';

const tags = ['Projects'];

export function projectRoutes(router: Router, ctx: AppContext): void {
  router.get('/orgs/:orgId/projects', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listProjects',
      summary: 'List projects',
      description: 'Every project of the organization, by name. Any member may list them.',
      params: OrgParams,
      response: { 200: Type.Array(Project) },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return service.listProjects(ctx.db, access);
    },
  });

  router.post('/orgs/:orgId/projects', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createProject',
      summary: 'Create a project',
      description:
        'Any member may create one; names are unique within the organization, whatever their case ' +
        '(409 `project_name_taken`). The configuration becomes version 1. `secrets` follow the PATCH ' +
        'rules and need owner or admin (and `secrets:write` for a key).',
      params: OrgParams,
      body: CreateProjectBody,
      response: { 201: Project },
    },
    handler: async (request, reply) => {
      const project = await inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, requirePrincipal(request), request.params.orgId);
        return service.createProject(trx, ctx.config, access, request.body);
      });
      return reply.code(201).send(project);
    },
  });

  router.get('/orgs/:orgId/projects/:projectId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getProject',
      summary: 'Get a project',
      description: 'Secrets are listed by name; their values are never returned.',
      params: ProjectParams,
      response: { 200: Project },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return service.getProject(ctx.db, access, request.params.projectId);
    },
  });

  router.patch('/orgs/:orgId/projects/:projectId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateProject',
      summary: 'Update a project',
      description:
        'Touches only the fields sent. A list (or `features`) is replaced as a whole, and emptied by sending it empty. ' +
        'An empty or whitespace `description` clears it to null; an omitted field is never erased. ' +
        '`secrets` is a list of changes: a string `value` creates or replaces the secret of that name, null removes it, ' +
        'names not mentioned are kept; writing secrets needs owner or admin, and an API key needs `secrets:write` ' +
        'in addition to `projects:write`. A change of the configuration makes a new version; secret changes do not.',
      params: ProjectParams,
      body: UpdateProjectBody,
      response: { 200: Project },
    },
    handler: async (request) =>
      inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, requirePrincipal(request), request.params.orgId);
        return service.updateProject(
          trx,
          ctx.config,
          access,
          request.params.projectId,
          request.body,
        );
      }),
  });

  router.delete('/orgs/:orgId/projects/:projectId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteProject',
      summary: 'Delete a project',
      description: 'Needs owner or admin. Deletes its secrets and version history with it.',
      params: ProjectParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, requirePrincipal(request), request.params.orgId);
        await service.deleteProject(trx, access, request.params.projectId);
      });
      return reply.code(204).send(null);
    },
  });
}
