import Type from 'typebox';
import { IdParams, NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { readInWorkspace, writeInWorkspace } from '../access/scope.js';
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

const tags = ['Webhooks'];
const EndpointParams = IdParams('workspaceId', 'endpointId');
const DeliveryParams = IdParams('workspaceId', 'endpointId', 'deliveryId');

const DELIVERY_RULES =
  'Each delivery is a POST with a JSON body, `X-Service-Signature: t=<unix seconds>,v1=<hex>` (HMAC-SHA256 of ' +
  '`<t>.<raw body>` with the signing secret, lowercase hex; two `v1=` entries for 24 hours after a rotation), ' +
  '`X-Service-Delivery` (the delivery id), `X-Service-Event` (the type) and `X-Service-Attempt`. Any 2xx is ' +
  'success; anything else, a redirect, a refused address or no answer within 10 seconds is a failure, retried ' +
  'after 10 s, 30 s, 2 min, 10 min and 1 h (six attempts), then `failed`. After 10 consecutive failed attempts the ' +
  'endpoint pauses; deliveries keep being queued and wait for `resume`.';

export function webhookRoutes(router: Router, ctx: AppContext): void {
  router.post('/workspaces/:workspaceId/webhooks', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint (admin); the signing secret is returned once',
      description:
        'Deliveries are queued in the transaction that writes the events, filtered by `eventTypes`, so a committed ' +
        'change always has its deliveries and a rolled-back one never does. A single event is delivered as ' +
        '`{kind: "event", deliveryId, workspaceId, type, eventIds, event}`; the events of a batch (bulk edit, ' +
        'import, cascade) as one delivery per batch and type: `{kind: "batch", deliveryId, workspaceId, type, batch: ' +
        '{batchId, count, firstEventId, lastEventId, read: {batchId, path}}, eventIds?, events?}` with the events ' +
        `inlined under 50, otherwise read from \`read.path\`. ${DELIVERY_RULES}`,
      params: IdParams('workspaceId'),
      body: CreateWebhookEndpoint,
      response: { 201: WebhookEndpointWithSecret },
    },
    handler: async (request, reply) => {
      const endpoint = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'webhooks.manage',
        (trx, access) => service.createEndpoint(trx, ctx.config, access, request.body),
      );
      return reply.code(201).send(endpoint);
    },
  });

  router.get('/workspaces/:workspaceId/webhooks', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listWebhookEndpoints',
      summary: 'The workspace’s webhook endpoints (admin)',
      params: IdParams('workspaceId'),
      response: { 200: Type.Array(WebhookEndpoint) },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.read', (db, access) =>
        service.listEndpoints(db, access.workspaceId),
      ),
  });

  router.get('/workspaces/:workspaceId/webhooks/:endpointId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWebhookEndpoint',
      summary: 'A webhook endpoint (admin)',
      params: EndpointParams,
      response: { 200: WebhookEndpoint },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.read', (db, access) =>
        service.getEndpoint(db, access.workspaceId, request.params.endpointId),
      ),
  });

  router.patch('/workspaces/:workspaceId/webhooks/:endpointId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'updateWebhookEndpoint',
      summary: 'Change an endpoint’s URL, event types or description (admin)',
      description:
        'Deliveries already queued keep their filtering; new patterns apply from now on.',
      params: EndpointParams,
      body: UpdateWebhookEndpoint,
      response: { 200: WebhookEndpoint },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.manage', (trx, access) =>
        service.updateEndpoint(trx, ctx.config, access, request.params.endpointId, request.body),
      ),
  });

  router.delete('/workspaces/:workspaceId/webhooks/:endpointId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete an endpoint with its deliveries (admin)',
      params: EndpointParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'webhooks.manage',
        (trx, access) => service.deleteEndpoint(trx, access.workspaceId, request.params.endpointId),
      );
      return reply.code(204).send(null);
    },
  });

  router.post('/workspaces/:workspaceId/webhooks/:endpointId/pause', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'pauseWebhookEndpoint',
      summary: 'Pause an endpoint (admin); its deliveries wait for resume',
      description: 'No body. Events keep being logged and deliveries queued; nothing is lost.',
      params: EndpointParams,
      response: { 200: WebhookEndpoint },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.manage', (trx, access) =>
        service.pauseEndpoint(trx, access.workspaceId, request.params.endpointId),
      ),
  });

  router.post('/workspaces/:workspaceId/webhooks/:endpointId/resume', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'resumeWebhookEndpoint',
      summary: 'Un-pause an endpoint (admin); pending deliveries become due at once',
      description:
        'No body. Resets the consecutive-failure count. Deliveries that already reached `failed` stay so; replay them.',
      params: EndpointParams,
      response: { 200: WebhookEndpoint },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.manage', (trx, access) =>
        service.resumeEndpoint(trx, access.workspaceId, request.params.endpointId),
      ),
  });

  router.post('/workspaces/:workspaceId/webhooks/:endpointId/rotate-secret', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'rotateWebhookSecret',
      summary: 'Replace the signing secret (admin); the new one is returned once',
      description:
        'No body. For 24 hours both secrets sign: each request carries `t=...,v1=<new>,v1=<old>`, which verifiers ' +
        'that accept any matching `v1` (Stripe’s do) take with either secret. Rotating again ends the earlier overlap.',
      params: EndpointParams,
      response: { 200: WebhookEndpointWithSecret },
    },
    handler: (request) =>
      writeInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.manage', (trx, access) =>
        service.rotateSecret(trx, access.workspaceId, request.params.endpointId),
      ),
  });

  router.get('/workspaces/:workspaceId/webhooks/:endpointId/deliveries', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listWebhookDeliveries',
      summary: 'An endpoint’s deliveries, newest first, with every attempt (admin)',
      description:
        'Each attempt shows its number, time, duration, status code and error. Page with `before`.',
      params: EndpointParams,
      querystring: DeliveryQuery,
      response: { 200: DeliveryPage },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.read', (db, access) =>
        service.listDeliveries(db, access.workspaceId, request.params.endpointId, request.query),
      ),
  });

  router.get('/workspaces/:workspaceId/webhooks/:endpointId/deliveries/:deliveryId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWebhookDelivery',
      summary: 'One delivery with every attempt (admin)',
      params: DeliveryParams,
      response: { 200: WebhookDelivery },
    },
    handler: (request) =>
      readInWorkspace(ctx, request, request.params.workspaceId, 'webhooks.read', (db, access) =>
        service.getDelivery(
          db,
          access.workspaceId,
          request.params.endpointId,
          request.params.deliveryId,
        ),
      ),
  });

  router.post('/workspaces/:workspaceId/webhooks/:endpointId/deliveries/:deliveryId/replay', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'replayWebhookDelivery',
      summary: 'Make a new attempt of a delivery, in any state (admin)',
      description:
        'No body; answers 202 with the delivery, now pending and due at once. A finished delivery gets exactly one ' +
        'more attempt; a pending one keeps its remaining retries. The body is rebuilt from the log with the same ' +
        'delivery id. On a paused endpoint the attempt waits for `resume`.',
      params: DeliveryParams,
      response: { 202: WebhookDelivery },
    },
    handler: async (request, reply) => {
      const delivery = await writeInWorkspace(
        ctx,
        request,
        request.params.workspaceId,
        'webhooks.manage',
        (trx, access) =>
          service.replayDelivery(
            trx,
            access.workspaceId,
            request.params.endpointId,
            request.params.deliveryId,
          ),
      );
      return reply.code(202).send(delivery);
    },
  });
}
