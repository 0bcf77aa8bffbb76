import { workspaceRoutes } from '../content/access/workspace-route.js';
import type { AppContext, Router } from '../module.js';
import { readEvents } from './reader.js';
import { EventPage, EventQuery } from './schemas.js';

export function eventRoutes(router: Router, ctx: AppContext): void {
  workspaceRoutes(router, ctx, ['Events']).route({
    method: 'GET',
    url: '/workspaces/:workspaceId/events',
    action: 'events.read',
    app: ['events:read'],
    operationId: 'listEvents',
    summary: 'Read the workspace’s event log',
    description:
      'Every change writes its events in the transaction that makes it, and writers never wait for each other. ' +
      'The log shows an event once every transaction that began writing before it has ended (the read waits up ' +
      'to 1 s for those, so a client sees its own write at once), so polling with `since` never misses an ' +
      'event that commits late. `?cause=edit` leaves imports out.',
    querystring: EventQuery,
    errors: ['invalid_cursor'],
    response: EventPage,
    handler: (db, access, request) => readEvents(db, access.workspaceId, request.query),
  });
}
