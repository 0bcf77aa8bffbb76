import { badRequest } from '../../http/errors.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import { isTimeZone } from '../view-compiler/parse.js';
import { OverviewQuery, WorkspaceOverview } from './schemas.js';
import { workspaceOverview } from './service.js';

export function overviewRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Workspaces']);
  route({
    method: 'GET',
    url: '/workspaces/:workspaceId/overview',
    action: 'workspace.read',
    app: ['items:read'],
    operationId: 'getWorkspaceOverview',
    summary: 'Cards per status category and per list, activity over 14 days, catalog size',
    description: 'Computed with three queries whatever the number of lists.',
    querystring: OverviewQuery,
    response: WorkspaceOverview,
    errors: ['invalid_time_zone'],
    handler: (db, access, request) => {
      const timeZone = request.query.timeZone ?? 'UTC';
      if (!isTimeZone(timeZone)) {
        throw badRequest('invalid_time_zone', 'timeZone must be an IANA time zone');
      }
      return workspaceOverview(db, access.workspaceId, timeZone);
    },
  });
}
