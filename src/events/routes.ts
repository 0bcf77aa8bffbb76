import Type from 'typebox';
import { authorizeWorkspace } from '../content/access/authorize.js';
import { workspaceRoutes } from '../content/access/workspace-route.js';
import type { AppContext, Router } from '../module.js';
import { KEEP_ALIVE_MS } from './feeds.js';
import { placeOf, readEvents } from './reader.js';
import { EventPage, EventQuery, EventStreamHeaders, EventStreamQuery } from './schemas.js';
import { RETRY_MS, streamEvents } from './stream.js';

const STREAM =
  'The log as Server-Sent Events (`text/event-stream`), for `EventSource`: every event that reaches the log, ' +
  'in the log’s order, each once. Each event is one message with no `event:` field (so `onmessage` gets them ' +
  'all): `id:` its id, the log’s cursor, and `data:` the same JSON as one event of `GET .../events`, whose ' +
  '`type` says what it is. The filters `type`, `batchId` and `cause` are the log’s.\n\n' +
  '**Resuming:** after the event named by `Last-Event-ID` (sent by `EventSource` when it reconnects) or, ' +
  'without it, by `since`: the events after it are replayed from the log, then live ones follow with no gap ' +
  'and no repeat, even for transactions that commit late (the log’s own rule: an event shows once every ' +
  'transaction that began writing before it has ended). Neither: only events that reach the log from now on. ' +
  'An id that is not an event of this workspace is 400 `invalid_cursor` before the stream opens.\n\n' +
  `**Frames:** first \`retry: ${RETRY_MS}\` (milliseconds before \`EventSource\` reconnects); once the replay ` +
  'is done, one `event: ready` whose `data` is `{"cursor": <id or null>}` and whose `id:` is that cursor, the ' +
  'last event passed (an event the filters left out counts), so a reconnect resumes from there even when ' +
  'nothing was sent (null only for an empty log); a comment line `: keep-alive` every ' +
  `${KEEP_ALIVE_MS / 1000} s.\n\n` +
  '**Ends** when the client goes away, when the server stops (the client reconnects, to any server process: ' +
  'each reads the log itself, woken by `NOTIFY`, polling each second as well), when a client reads too slowly ' +
  '(8 MiB waiting; it reconnects and catches up from the log), and at the next keep-alive after the caller ' +
  'lost access to the workspace (a member removed, a role lowered) or its credential (a key or token ' +
  'revoked, a session signed out); the reconnect is then refused (404 or 401).\n\n' +
  '**Limit:** a person (their sessions, and the workspace keys and app installations they created, together) ' +
  'holds at most `LOG_FOLLOWERS_PER_CALLER` (default 32) event streams open at once on one server process, ' +
  'counted apart from log sockets; one more is 429 `too_many_followers`.';

export function eventRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Events']);
  route({
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
      'event that commits late. `?cause=edit` leaves imports out. Follow it live with ' +
      '`GET .../events/stream`.',
    querystring: EventQuery,
    errors: ['invalid_cursor'],
    response: EventPage,
    handler: (db, access, request) => readEvents(db, access.workspaceId, request.query),
  });

  route({
    method: 'GET',
    url: '/workspaces/:workspaceId/events/stream',
    action: 'events.read',
    app: ['events:read'],
    operationId: 'streamEvents',
    summary: 'Follow the workspace’s event log (Server-Sent Events)',
    description: STREAM,
    querystring: EventStreamQuery,
    headers: EventStreamHeaders,
    produces: ['text/event-stream'],
    errors: ['invalid_cursor', 'too_many_followers'],
    response: Type.String({
      description:
        'text/event-stream: messages whose `data` is an `Event`, one `ready` event, keep-alive comments.',
    }),
    handler: async (db, access, request, reply) => {
      const { workspaceId, principal } = access;
      const header = request.headers['last-event-id'];
      const cursor = typeof header === 'string' ? header : request.query.since;
      const after =
        cursor === undefined
          ? undefined
          : { id: cursor, place: await placeOf(db, workspaceId, cursor) };
      return streamEvents(
        ctx.eventFeeds,
        {
          db,
          workspaceId,
          filters: request.query,
          after,
          principal,
          // The credential (signed out, key revoked) and the membership, at each keep-alive.
          stillAllowed: async () =>
            (await request.credentialStillValid()) &&
            authorizeWorkspace(db, principal, workspaceId, 'events.read').then(
              () => true,
              () => false,
            ),
        },
        reply,
      );
    },
  });

  // An open stream would hold the server open: end them all before it closes.
  router.addHook('preClose', async () => ctx.eventFeeds.close());
}
