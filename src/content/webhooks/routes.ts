import Type from 'typebox';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { workspaceRoutes } from '../access/workspace-route.js';
import {
  CreateWebhookEndpoint,
  DeliveryPage,
  DeliveryQuery,
  UpdateWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from './schemas.js';
import * as service from './service.js';

const DELIVERY_RULES =
  'Each delivery is a POST with a JSON body, `X-Service-Signature: t=<unix seconds>,v1=<hex>` (HMAC-SHA256 of ' +
  '`<t>.<raw body>` with the signing secret, lowercase hex; two `v1=` entries for 24 hours after a rotation), ' +
  '`X-Service-Delivery` (the delivery id), `X-Service-Event` (the type) and `X-Service-Attempt`. Any 2xx is ' +
  'success; anything else, a redirect, a refused address or no answer within 10 seconds is a failure, retried ' +
  'after 10 s, 30 s, 2 min, 10 min and 1 h (six attempts), then `failed`. After 10 consecutive failed attempts the ' +
  'endpoint pauses; deliveries keep being queued and wait for `resume`.';

export function webhookRoutes(router: Router, ctx: AppContext): void {
  const { route } = workspaceRoutes(router, ctx, ['Webhooks']);
  const read = { action: 'webhooks.read', app: ['webhooks:read'] } as const;
  const manage = { action: 'webhooks.manage', app: ['webhooks:write'] } as const;
  const urlErrors = [
    'invalid_webhook_url',
    'webhook_url_not_allowed',
    'unknown_event_type',
  ] as const;

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Create a webhook endpoint (admin); the signing secret is returned once',
    description:
      'Deliveries are queued in the transaction that writes the events, filtered by `eventTypes`, so a committed ' +
      'change always has its deliveries and a rolled-back one never does. A single event is delivered as ' +
      '`{kind: "event", deliveryId, workspaceId, type, eventIds, event}`; the events of a batch (bulk edit, ' +
      'import, cascade) as one delivery per batch and type: `{kind: "batch", deliveryId, workspaceId, type, batch: ' +
      '{batchId, count, firstEventId, lastEventId, read: {batchId, path}}, eventIds?, events?}` with the events ' +
      `inlined under 50, otherwise read from \`read.path\`. ${DELIVERY_RULES}`,
    body: CreateWebhookEndpoint,
    response: WebhookEndpointWithSecret,
    status: 201,
    errors: urlErrors,
    handler: (trx, access, request) =>
      service.createEndpoint(trx, ctx.config, access, request.body),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: 'The workspace’s webhook endpoints (admin)',
    response: Type.Array(WebhookEndpoint),
    handler: (db, access) => service.listEndpoints(db, access.workspaceId),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/webhooks/:endpointId',
    operationId: 'getWebhookEndpoint',
    summary: 'A webhook endpoint (admin)',
    response: WebhookEndpoint,
    handler: (db, access, request) =>
      service.getEndpoint(db, access.workspaceId, request.params.endpointId),
  });

  route({
    ...manage,
    method: 'PATCH',
    url: '/workspaces/:workspaceId/webhooks/:endpointId',
    operationId: 'updateWebhookEndpoint',
    summary: 'Change an endpoint’s URL, event types or description (admin)',
    description: 'Deliveries already queued keep their filtering; new patterns apply from now on.',
    body: UpdateWebhookEndpoint,
    response: WebhookEndpoint,
    errors: urlErrors,
    handler: (trx, access, request) =>
      service.updateEndpoint(trx, ctx.config, access, request.params.endpointId, request.body),
  });

  route({
    ...manage,
    method: 'DELETE',
    url: '/workspaces/:workspaceId/webhooks/:endpointId',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Delete an endpoint with its deliveries (admin)',
    response: NoContent,
    handler: (trx, access, request) =>
      service.deleteEndpoint(trx, access.workspaceId, request.params.endpointId),
  });

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/webhooks/:endpointId/pause',
    operationId: 'pauseWebhookEndpoint',
    summary: 'Pause an endpoint (admin); its deliveries wait for resume',
    description: 'No body. Events keep being logged and deliveries queued; nothing is lost.',
    response: WebhookEndpoint,
    handler: (trx, access, request) =>
      service.pauseEndpoint(trx, access.workspaceId, request.params.endpointId),
  });

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/webhooks/:endpointId/resume',
    operationId: 'resumeWebhookEndpoint',
    summary: 'Un-pause an endpoint (admin); pending deliveries become due at once',
    description:
      'No body. Resets the consecutive-failure count. Deliveries that already reached `failed` stay so; replay them.',
    response: WebhookEndpoint,
    handler: (trx, access, request) =>
      service.resumeEndpoint(trx, access.workspaceId, request.params.endpointId),
  });

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/webhooks/:endpointId/rotate-secret',
    operationId: 'rotateWebhookSecret',
    summary: 'Replace the signing secret (admin); the new one is returned once',
    description:
      'No body. For 24 hours both secrets sign: each request carries `t=...,v1=<new>,v1=<old>`, which verifiers ' +
      'that accept any matching `v1` (Stripe’s do) take with either secret. Rotating again ends the earlier overlap.',
    response: WebhookEndpointWithSecret,
    handler: (trx, access, request) =>
      service.rotateSecret(trx, access.workspaceId, request.params.endpointId),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/webhooks/:endpointId/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'An endpoint’s deliveries, newest first, with every attempt (admin)',
    description:
      'Each attempt shows its number, time, duration, status code and error. Page with `before`.',
    querystring: DeliveryQuery,
    response: DeliveryPage,
    handler: (db, access, request) =>
      service.listDeliveries(db, access.workspaceId, request.params.endpointId, request.query),
  });

  route({
    ...read,
    method: 'GET',
    url: '/workspaces/:workspaceId/webhooks/:endpointId/deliveries/:deliveryId',
    operationId: 'getWebhookDelivery',
    summary: 'One delivery with every attempt (admin)',
    response: WebhookDelivery,
    handler: (db, access, request) =>
      service.getDelivery(
        db,
        access.workspaceId,
        request.params.endpointId,
        request.params.deliveryId,
      ),
  });

  route({
    ...manage,
    method: 'POST',
    url: '/workspaces/:workspaceId/webhooks/:endpointId/deliveries/:deliveryId/replay',
    operationId: 'replayWebhookDelivery',
    summary: 'Make a new attempt of a delivery, in any state (admin)',
    description:
      'No body; answers 202 with the delivery, now pending and due at once. A finished delivery gets exactly one ' +
      'more attempt; a pending one keeps its remaining retries. The body is rebuilt from the log with the same ' +
      'delivery id. On a paused endpoint the attempt waits for `resume`.',
    response: WebhookDelivery,
    status: 202,
    handler: (trx, access, request) =>
      service.replayDelivery(
        trx,
        access.workspaceId,
        request.params.endpointId,
        request.params.deliveryId,
      ),
  });
}
