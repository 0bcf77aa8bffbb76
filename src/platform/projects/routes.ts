import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { CreateProjectBody, Project, UpdateProjectBody } from './schemas.js';
import * as service from './service.js';

export function projectRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Projects']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects',
    key: ['projects:read'],
    permission: 'projects.read',
    operationId: 'listProjects',
    summary: 'List projects',
    description: 'Every project of the organization, by name. Any member may list them.',
    response: Type.Array(Project),
    handler: (db, access) => service.listProjects(db, access),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/projects',
    key: ['projects:write'],
    permission: 'projects.write',
    operationId: 'createProject',
    summary: 'Create a project',
    description:
      'Any member may create one; names are unique within the organization, whatever their case. ' +
      'The configuration becomes version 1. `secrets` follow the PATCH rules and need owner or admin ' +
      '(and `secrets:write` for a key).',
    body: CreateProjectBody,
    response: Project,
    status: 201,
    errors: ['project_name_taken', 'insufficient_role', 'invalid_config', 'duplicate_secret_name'],
    handler: (trx, access, request) => service.createProject(trx, ctx.config, access, request.body),
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId',
    key: ['projects:read'],
    permission: 'projects.read',
    operationId: 'getProject',
    summary: 'Get a project',
    description: 'Secrets are listed by name; their values are never returned.',
    response: Project,
    handler: (db, access, request) => service.getProject(db, access, request.params.projectId),
  });

  route({
    method: 'PATCH',
    url: '/orgs/:orgId/projects/:projectId',
    key: ['projects:write'],
    permission: 'projects.write',
    operationId: 'updateProject',
    summary: 'Update a project',
    description:
      'Touches only the fields sent. A list (or `features`) is replaced as a whole, and emptied by sending it empty. ' +
      'An empty or whitespace `description` clears it to null; an omitted field is never erased. ' +
      '`secrets` is a list of changes: a string `value` creates or replaces the secret of that name, null removes it, ' +
      'names not mentioned are kept; writing secrets needs owner or admin, and an API key needs `secrets:write` ' +
      'in addition to `projects:write`. A change of the configuration makes a new version; secret changes do not.',
    body: UpdateProjectBody,
    response: Project,
    errors: ['project_name_taken', 'insufficient_role', 'invalid_config', 'duplicate_secret_name'],
    handler: (trx, access, request) =>
      service.updateProject(trx, ctx.config, access, request.params.projectId, request.body),
  });

  route({
    method: 'DELETE',
    url: '/orgs/:orgId/projects/:projectId',
    key: ['projects:write'],
    permission: 'projects.delete',
    operationId: 'deleteProject',
    summary: 'Delete a project',
    description: 'Deletes its secrets and version history with it.',
    response: NoContent,
    errors: ['project_in_use'],
    handler: (trx, access, request) => service.deleteProject(trx, access, request.params.projectId),
  });
}
