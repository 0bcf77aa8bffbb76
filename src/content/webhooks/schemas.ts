import Type, { type Static } from 'typebox';
import { Strict, Timestamp, Uuid } from '../../http/schemas.js';

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'An absolute http or https URL without credentials. Loopback and private addresses are refused (400 ' +
    '`webhook_url_not_allowed`) unless the server runs with `WEBHOOK_ALLOW_PRIVATE=true`; names are resolved and ' +
    'checked again at each request.',
});

const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 50,
  description:
    'Patterns: exactly `*`, a family such as `item.*`, or an exact event type. A pattern matching no known type is ' +
    'refused (400 `unknown_event_type`).',
});

const Description = Type.Union([Type.String({ maxLength: 500 }), Type.Null()]);

export const WebhookEndpoint = Type.Object(
  {
    id: Uuid,
    url: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    eventTypes: Type.Array(Type.String()),
    state: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
    pausedAt: Type.Union([Timestamp, Type.Null()]),
    pauseReason: Type.Union([Type.Literal('manual'), Type.Literal('failures'), Type.Null()], {
      description: '`failures`: paused after 10 consecutive failed attempts.',
    }),
    consecutiveFailures: Type.Integer(),
    secretPrefix: Type.String({ description: 'The start of the signing secret, to recognize it.' }),
    previousSecretExpiresAt: Type.Union([Timestamp, Type.Null()], {
      description: 'After a rotation, the old secret signs too (a second `v1=`) until then.',
    }),
    createdBy: Type.Union([Uuid, Type.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({
      description:
        'The signing secret (`whsec_...`), shown only here. Use it as the HMAC key as is.',
    }),
  },
  { title: 'WebhookEndpointWithSecret' },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const CreateWebhookEndpoint = Strict(
  { url: Url, eventTypes: EventTypes, description: Type.Optional(Description) },
  { title: 'CreateWebhookEndpoint' },
);
export type CreateWebhookEndpoint = Static<typeof CreateWebhookEndpoint>;

export const UpdateWebhookEndpoint = Strict(
  {
    url: Type.Optional(Url),
    eventTypes: Type.Optional(EventTypes),
    description: Type.Optional(Description),
  },
  {
    title: 'UpdateWebhookEndpoint',
    description: 'A new `eventTypes` applies to deliveries queued from now on.',
  },
);
export type UpdateWebhookEndpoint = Static<typeof UpdateWebhookEndpoint>;

export const DeliveryAttempt = Type.Object(
  {
    number: Type.Integer({ description: '1 for the first attempt.' }),
    startedAt: Timestamp,
    durationMs: Type.Integer(),
    statusCode: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The receiver’s HTTP status; null when no response came.',
    }),
    error: Type.Union([Type.String(), Type.Null()]),
    succeeded: Type.Boolean(),
  },
  { title: 'WebhookDeliveryAttempt' },
);

export const WebhookDelivery = Type.Object(
  {
    id: Uuid,
    endpointId: Uuid,
    kind: Type.Union([Type.Literal('event'), Type.Literal('batch')]),
    eventType: Type.String(),
    eventId: Type.Union([Uuid, Type.Null()], { description: 'The event of a single delivery.' }),
    batchId: Type.Union([Uuid, Type.Null()]),
    eventCount: Type.Integer(),
    state: Type.Union(
      [Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')],
      {
        description:
          '`pending`: waiting for its next attempt; `succeeded`: a 2xx answer; `failed`: the final state after the ' +
          'last attempt failed.',
      },
    ),
    attemptCount: Type.Integer(),
    nextAttemptAt: Type.Union([Timestamp, Type.Null()], {
      description: 'When a pending delivery is due (it waits longer while its endpoint is paused).',
    }),
    lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
    lastError: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    completedAt: Type.Union([Timestamp, Type.Null()]),
    attempts: Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first.' }),
  },
  { title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const DeliveryQuery = Strict({
  state: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  ),
  before: Type.Optional(
    Type.String({ format: 'uuid', description: 'Continue after this delivery id (newest first).' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, description: 'Default 50, at most 200.' }),
  ),
});
export type DeliveryQuery = Static<typeof DeliveryQuery>;

export const DeliveryPage = Type.Object(
  {
    deliveries: Type.Array(WebhookDelivery),
    nextCursor: Type.Union([Uuid, Type.Null()], {
      description: 'Pass as `before` for the next (older) page; null at the end.',
    }),
  },
  { title: 'WebhookDeliveryPage' },
);
export type DeliveryPage = Static<typeof DeliveryPage>;
