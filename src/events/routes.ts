import { authorizeWorkspace } from '../content/access/authorize.js';
import { requirePrincipal } from '../http/auth.js';
import { IdParams } from '../http/schemas.js';
import type { AppContext, Router } from '../module.js';
import { readEvents } from './reader.js';
import { EventPage, EventQuery } from './schemas.js';

export function eventRoutes(router: Router, ctx: AppContext): void {
  router.get('/workspaces/:workspaceId/events', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['Events'],
      operationId: 'listEvents',
      summary: 'Read the workspace’s event log',
      description:
        'Every change writes its events in the transaction that makes it. Event ids follow commit order within a ' +
        'workspace, so polling with `since` never misses an event that commits late. `?cause=edit` leaves imports out.',
      params: IdParams('workspaceId'),
      querystring: EventQuery,
      response: { 200: EventPage },
    },
    handler: async (request) => {
      const access = await authorizeWorkspace(
        ctx.db,
        requirePrincipal(request),
        request.params.workspaceId,
        'events.read',
      );
      return readEvents(ctx.db, access.workspaceId, request.query);
    },
  });
}
