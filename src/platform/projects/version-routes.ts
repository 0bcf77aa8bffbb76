import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import {
  Project,
  ProjectVersion,
  ProjectVersionPage,
  VersionParams,
  VersionQuery,
} from './schemas.js';
import * as versions from './versions.js';

export function projectVersionRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Projects']);

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId/versions',
    key: ['projects:read'],
    permission: 'projects.read',
    operationId: 'listProjectVersions',
    summary: "A project's configuration history",
    description:
      'Newest first. Each change of the configuration (create, update, restore) is a version with a number; ' +
      'secrets are never part of a version. Paged by `before` (a version number) and `limit`.',
    querystring: VersionQuery,
    response: ProjectVersionPage,
    handler: (db, access, request) => {
      const { limit = 20, before } = request.query;
      return versions.listVersions(db, access, request.params.projectId, { limit, before });
    },
  });

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId/versions/:version',
    key: ['projects:read'],
    permission: 'projects.read',
    operationId: 'getProjectVersion',
    summary: 'Get one version of a project',
    params: VersionParams,
    response: ProjectVersion,
    handler: (db, access, request) =>
      versions.getVersion(db, access, request.params.projectId, request.params.version),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/projects/:projectId/versions/:version/restore',
    key: ['projects:write'],
    permission: 'projects.write',
    operationId: 'restoreProjectVersion',
    summary: 'Restore a version of a project',
    description:
      "Makes that version's configuration current as a new version (action `restore`). Secrets are not versioned: " +
      'the current secrets stay as they are. Restoring a configuration equal to the current one changes nothing.',
    params: VersionParams,
    response: Project,
    handler: (trx, access, request) =>
      versions.restoreVersion(trx, access, request.params.projectId, request.params.version),
  });
}
