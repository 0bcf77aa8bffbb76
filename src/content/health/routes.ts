import { sql } from 'kysely';
import Type from 'typebox';
import { API_VERSION } from '../../http/openapi.js';
import { routesOf } from '../../http/route.js';
import type { AppContext, Router } from '../../module.js';

const Health = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
    version: Type.String(),
    uptimeSeconds: Type.Number(),
    database: Type.Object({
      kind: Type.Union([Type.Literal('postgres'), Type.Literal('pglite')]),
      reachable: Type.Boolean(),
      latencyMs: Type.Union([Type.Number(), Type.Null()]),
    }),
  },
  { title: 'Health' },
);

const DATABASE_TIMEOUT_MS = 2000;

async function pingDatabase(ctx: AppContext): Promise<number | null> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), DATABASE_TIMEOUT_MS);
  });
  try {
    const ping = sql`select 1`.execute(ctx.db).then(() => performance.now() - started);
    return await Promise.race([ping, timeout]);
  } catch (error) {
    ctx.log.warn({ err: error }, 'health check: database unreachable');
    return null;
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(router: Router, ctx: AppContext): void {
  routesOf(router, ['Health'])({
    method: 'GET',
    url: '/health',
    access: 'public',
    operationId: 'getHealth',
    summary: 'Process state and database reachability',
    description:
      '503 with `status: "unavailable"` when the database does not answer within 2 seconds.',
    response: Health,
    otherResponses: { 503: Health },
    handler: async (_request, reply) => {
      const latency = await pingDatabase(ctx);
      const reachable = latency !== null;
      const health = {
        status: reachable ? ('ok' as const) : ('unavailable' as const),
        version: API_VERSION,
        uptimeSeconds: Math.round(process.uptime()),
        database: {
          kind: ctx.dbKind,
          reachable,
          latencyMs: latency === null ? null : Math.round(latency * 100) / 100,
        },
      };
      if (!reachable) reply.code(503);
      return health;
    },
  });
}
