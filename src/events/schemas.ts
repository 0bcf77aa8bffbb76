import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../http/schemas.js';
import { ActorSchema, EventTypeSchema } from './types.js';

export const EVENT_PAGE_DEFAULT = 100;
export const EVENT_PAGE_MAX = 1000;

export const Event = Type.Object(
  {
    id: Type.String({
      description:
        'Time-ordered UUID (v7), the cursor for `since` and `before`. The log is in the order its transactions settle, which ids follow only roughly.',
    }),
    occurredAt: Timestamp,
    type: EventTypeSchema,
    resource: Type.Object({ kind: Type.String(), id: Uuid }),
    actor: ActorSchema,
    changes: Type.Record(
      Type.String(),
      Type.Object({ before: Type.Unknown(), after: Type.Unknown() }),
      { description: 'Only the keys that changed; registry properties as `properties.<key>`.' },
    ),
    batchId: Type.Union([Uuid, Type.Null()]),
    cause: Type.Union([Type.Literal('edit'), Type.Literal('import')]),
  },
  { title: 'Event' },
);
export type Event = Static<typeof Event>;

export const EventQuery = Strict({
  since: Type.Optional(
    Type.String({ format: 'uuid', description: 'Only events after this event id (exclusive).' }),
  ),
  before: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'Only events before this event id (exclusive); for paging `desc`.',
    }),
  ),
  type: Type.Optional(
    Type.Array(EventTypeSchema, { description: 'Repeat to include several types.' }),
  ),
  batchId: Type.Optional(Uuid),
  cause: Type.Optional(Type.Union([Type.Literal('edit'), Type.Literal('import')])),
  order: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], {
      description: '`asc` (default) is the log’s own order, oldest first; `desc` is newest first.',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: EVENT_PAGE_MAX,
      description: `Default ${EVENT_PAGE_DEFAULT}, at most ${EVENT_PAGE_MAX}.`,
    }),
  ),
});
export type EventQuery = Static<typeof EventQuery>;

export const EventPage = Type.Object(
  {
    events: Type.Array(Event),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description:
        'The id to continue from: pass it as `since` (asc) or `before` (desc). With `asc` it is the last event seen, ' +
        'or `since` itself when the page is empty, so a poller can always use it.',
    }),
    hasMore: Type.Boolean({ description: 'True when more events matched than the page holds.' }),
  },
  { title: 'EventPage' },
);
export type EventPage = Static<typeof EventPage>;

export const EventStreamQuery = Strict({
  since: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'Start after this event id (exclusive), as `since` of the log; `Last-Event-ID` wins when both are ' +
        'sent. Neither: only events that reach the log from now on.',
    }),
  ),
  type: EventQuery.properties.type,
  batchId: EventQuery.properties.batchId,
  cause: EventQuery.properties.cause,
});
export type EventStreamQuery = Static<typeof EventStreamQuery>;

export const EventStreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'The `id` of the last event received, sent by `EventSource` when it reconnects: the stream resumes after it.',
    }),
  ),
});
