import { inTransaction } from '../../db/transaction.js';
import { requirePrincipal } from '../../http/auth.js';
import type { AppContext, Router } from '../../module.js';
import * as orgs from '../orgs/service.js';
import {
  Project,
  ProjectParams,
  ProjectVersion,
  ProjectVersionPage,
  VersionParams,
  VersionQuery,
} from './schemas.js';
import * as versions from './versions.js';

const tags = ['Projects'];

export function projectVersionRoutes(router: Router, ctx: AppContext): void {
  router.get('/orgs/:orgId/projects/:projectId/versions', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listProjectVersions',
      summary: "A project's configuration history",
      description:
        'Newest first. Each change of the configuration (create, update, restore) is a version with a number; ' +
        'secrets are never part of a version. Paged by `before` (a version number) and `limit`.',
      params: ProjectParams,
      querystring: VersionQuery,
      response: { 200: ProjectVersionPage },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      const { limit = 20, before } = request.query;
      return versions.listVersions(ctx.db, access, request.params.projectId, { limit, before });
    },
  });

  router.get('/orgs/:orgId/projects/:projectId/versions/:version', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getProjectVersion',
      summary: 'Get one version of a project',
      params: VersionParams,
      response: { 200: ProjectVersion },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return versions.getVersion(ctx.db, access, request.params.projectId, request.params.version);
    },
  });

  router.post('/orgs/:orgId/projects/:projectId/versions/:version/restore', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'restoreProjectVersion',
      summary: 'Restore a version of a project',
      description:
        "Makes that version's configuration current as a new version (action `restore`). Secrets are not versioned: " +
        'the current secrets stay as they are. Restoring a configuration equal to the current one changes nothing.',
      params: VersionParams,
      response: { 200: Project },
    },
    handler: async (request) =>
      inTransaction(ctx.db, async (trx) => {
        const access = await orgs.orgAccess(trx, requirePrincipal(request), request.params.orgId);
        return versions.restoreVersion(
          trx,
          access,
          request.params.projectId,
          request.params.version,
        );
      }),
  });
}
