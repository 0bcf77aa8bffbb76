import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { countPendingDeliveries } from '../content/webhooks/service.js';
import type { PoolCounters } from '../db/connect.js';
import type { AppContext } from '../module.js';

/** The label of requests no route matched (404s), so unknown URLs add no series. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The metrics of one application, in a registry of its own (tests build many
 * apps in one process). Null when `METRICS_TOKEN` is unset: nothing is
 * measured then, not even the event loop, whose monitor cannot be stopped.
 */
export function installMetrics(
  app: FastifyInstance,
  ctx: AppContext,
  pool: PoolCounters | undefined,
): Registry | null {
  if (ctx.config.metricsToken === null) return null;
  const registry = new Registry();
  const registers = [registry];
  // Process metrics: CPU, memory, handles, GC and the event-loop lag.
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    duration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  new Gauge({
    name: 'sparrow_agents_connected',
    help: 'Node agents connected to this server process',
    registers,
    collect() {
      this.set(ctx.agents.connectedNodeIds().length);
    },
  });

  new Gauge({
    name: 'sparrow_webhook_deliveries_pending',
    help: 'Webhook deliveries not yet settled (due, in flight or waiting for a retry)',
    registers,
    async collect() {
      try {
        this.set(await countPendingDeliveries(ctx.db));
      } catch (error) {
        // An unreachable database leaves the series out rather than stale.
        this.reset();
        ctx.log.warn({ err: error }, 'metrics: could not count pending webhook deliveries');
      }
    },
  });

  if (pool !== undefined) installPoolGauges(registry, pool);
  return registry;
}

/** The PostgreSQL pool (PGlite has one in-process connection and no pool). */
function installPoolGauges(registry: Registry, pool: PoolCounters): void {
  const gauges: Array<[string, string, () => number]> = [
    ['sparrow_db_pool_connections', 'Connections open in the pool', () => pool.totalCount],
    ['sparrow_db_pool_idle_connections', 'Open connections not in use', () => pool.idleCount],
    [
      'sparrow_db_pool_waiting_queries',
      'Queries waiting for a free connection',
      () => pool.waitingCount,
    ],
  ];
  for (const [name, help, read] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  }
}
