import { badRequest } from '../../http/errors.js';
import { IdParams } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace } from '../access/scope.js';
import { isTimeZone } from '../query/parse.js';
import { OverviewQuery, WorkspaceOverview } from './schemas.js';
import { workspaceOverview } from './service.js';

export function overviewRoutes(router: Router, ctx: AppContext): void {
  router.get('/workspaces/:workspaceId/overview', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['Workspaces'],
      operationId: 'getWorkspaceOverview',
      summary: 'Cards per status category and per list, activity over 14 days, catalog size',
      description: 'Computed with three queries whatever the number of lists.',
      params: IdParams('workspaceId'),
      querystring: OverviewQuery,
      response: { 200: WorkspaceOverview },
    },
    handler: (request) => {
      const timeZone = request.query.timeZone ?? 'UTC';
      if (!isTimeZone(timeZone))
        throw badRequest('invalid_time_zone', 'timeZone must be an IANA time zone');
      return readInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'workspace.read',
        (db, access) => workspaceOverview(db, access.workspaceId, timeZone),
      );
    },
  });
}
