import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Registry } from 'prom-client';
import Type from 'typebox';
import { AppError, unauthorized } from '../http/errors.js';
import { routesOf } from '../http/route.js';
import { NoContent } from '../http/schemas.js';
import type { AppContext, Router } from '../module.js';

/** The interactive API reference, where `GET /api/` sends a browser. */
export const API_REFERENCE_PATH = '/api/docs';

/** Where `GET /` sends a browser: the web app. */
export const WEB_APP_PATH = '/app/';

const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** The scraper's bearer token must be METRICS_TOKEN; compared in constant time. */
function checkMetricsToken(request: FastifyRequest, expected: string): void {
  const header = request.headers.authorization;
  if (header === undefined) {
    throw unauthorized('unauthenticated', 'Send METRICS_TOKEN as a bearer token');
  }
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) {
    throw unauthorized(
      'malformed_authorization',
      'The Authorization header must be "Bearer <token>"',
    );
  }
  if (!timingSafeEqual(digest(token), digest(expected))) {
    throw unauthorized('invalid_token', 'The token is not the metrics token');
  }
}

/**
 * The operator's routes: the front door and the Prometheus endpoint. Both
 * are public to the app's own credentials; `/metrics` checks its own token.
 * `registry` is null when metrics are off.
 */
export function observabilityRoutes(
  router: Router,
  ctx: AppContext,
  registry: Registry | null,
): void {
  const route = routesOf(router, ['Operation']);

  route({
    method: 'GET',
    url: '/',
    access: 'public',
    operationId: 'getRoot',
    summary: 'Redirects to the web app',
    description:
      `Answers 302 with \`Location: ${WEB_APP_PATH}\` (the web app); under the \`/api\` root, ` +
      `with \`Location: ${API_REFERENCE_PATH}\` (the interactive API reference).`,
    status: 302,
    response: NoContent,
    // Under the `/api` root the route is `/api/` only: `/api` itself stays unrouted.
    options: { prefixTrailingSlash: 'slash' },
    handler: async (request, reply) =>
      reply.redirect(request.routeOptions.url === '/' ? WEB_APP_PATH : API_REFERENCE_PATH, 302),
  });

  route({
    method: 'GET',
    url: '/metrics',
    access: 'public',
    operationId: 'getMetrics',
    summary: 'Metrics of this server process, for Prometheus',
    description:
      'The Prometheus text format: `http_request_duration_seconds` by method, route pattern and status; ' +
      'database pool use (PostgreSQL); pending webhook deliveries; connected node agents; ' +
      'process metrics (event-loop lag, memory, CPU). Takes the `METRICS_TOKEN` of the server as a bearer ' +
      'token, not an account credential; without `METRICS_TOKEN` the route answers 404 `metrics_disabled`.',
    // The success answer is text; errors stay JSON.
    response: Type.Unsafe<string>({
      description: 'The Prometheus text exposition format, version 0.0.4.',
      content: { 'text/plain': { schema: { type: 'string' } } },
    }),
    errors: ['unauthenticated', 'malformed_authorization', 'invalid_token', 'metrics_disabled'],
    handler: async (request, reply) => {
      const token = ctx.config.metricsToken;
      if (registry === null || token === null) {
        throw new AppError(
          'metrics_disabled',
          'Metrics are off: set METRICS_TOKEN to turn them on',
        );
      }
      checkMetricsToken(request, token);
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  });
}
