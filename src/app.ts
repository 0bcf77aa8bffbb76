import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './config.js';
import { RegistryCache } from './content/fields/registry-cache.js';
import type { DatabaseKind, PoolCounters } from './db/connect.js';
import { createListener, type NotificationSource } from './db/listen.js';
import type { Database } from './db/schema.js';
import { type Access, type ApiKind, type CredentialRule, installAuth } from './http/auth.js';
import { httpServerOptions, installConnectionGuard, installHostGuard } from './http/connections.js';
import { frameworkErrorHandler, installErrorHandling } from './http/error-handler.js';
import { installJsonBodyParser } from './http/json-body.js';
import { installNulGuard } from './http/nul.js';
import {
  CONTENT_MIRROR_PREFIX,
  describeRouteDefaults,
  hideFromDescription,
  registerDocumentationRoutes,
  registerOpenApi,
} from './http/openapi.js';
import { REQUEST_ID_HEADER, requestId } from './http/request-id.js';
import { buildSerializer } from './http/serialization.js';
import { strictQuery } from './http/strict-query.js';
import { validatorCompiler } from './http/validation.js';
import type { AppBase, AppContext, AppModule } from './module.js';
import { loggerTransport } from './observability/logging.js';
import { installMetrics } from './observability/metrics.js';
import { serializeRequest } from './observability/request-log.js';
import { observabilityRoutes } from './observability/routes.js';
import { buildRuntime } from './runtime.js';
import { findWebDist } from './web/dist.js';
import { installBrowserPages, registerWebApp } from './web/routes.js';

export interface BuildOptions {
  config: Config;
  db: Database;
  dbKind: DatabaseKind;
  modules: readonly AppModule[];
  /** The PostgreSQL pool's counters, reported by `/metrics`. */
  pool?: PoolCounters;
  /** Where this app's LISTEN/NOTIFY notifications come from (the handle's `notifications`). */
  notifications?: () => NotificationSource;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** The built web app served under `/app/`; by default `web/dist` (null: none). */
  webDist?: string | null;
}

/** A registered route, as the route-to-scope tables and their tests see it. */
export interface RouteRecord {
  method: string;
  /** The full route pattern, as registered. */
  url: string;
  /** The pattern without its root (see RouteRef). */
  canonicalUrl: string;
  api: ApiKind;
  access: Access | undefined;
  /** What a scoped credential needs, as declared with the route (undefined: refused to them). */
  rule: CredentialRule | undefined;
  /** Whether the route was declared through the route helpers. */
  declared: boolean;
  /** What guards it beyond its credential rule (a role permission), as declared. */
  guard: string | undefined;
  /** Whether it answers WebSocket upgrades. */
  websocket: boolean;
  /** The operation it serves in the API description, when it names one. */
  operationId: string | undefined;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
  routes: readonly RouteRecord[];
}

/** Records which interface a route belongs to and its pattern without the root prefix. */
function tagRoute(api: ApiKind, rootPrefix: string) {
  return (route: RouteOptions) => {
    const canonicalUrl =
      rootPrefix !== '' && route.url.startsWith(rootPrefix)
        ? route.url.slice(rootPrefix.length)
        : route.url;
    route.config = { ...route.config, api, canonicalUrl };
  };
}

/** Builds the HTTP application; it does not listen (tests call `inject`). */
export async function buildApp({
  config,
  db,
  dbKind,
  modules,
  pool,
  notifications,
  logStream,
  webDist = findWebDist(),
}: BuildOptions): Promise<BuiltApp> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: { req: serializeRequest },
      ...(logStream === undefined ? loggerTransport(config) : { stream: logStream }),
    },
    genReqId: requestId,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    frameworkErrors: frameworkErrorHandler,
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer } },
    routerOptions: { maxParamLength: 500 },
    ...httpServerOptions(config),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const listener = createListener(notifications?.());
  const registries = new RegistryCache();
  const routes: RouteRecord[] = [];
  const base: AppBase = { config, db, dbKind, log: app.log, listener, registries, routes };
  const ctx: AppContext = { ...base, ...buildRuntime(base, modules) };
  app.addHook('onClose', async () => {
    await registries.stop();
    await listener.close();
  });
  await registries.start(listener).catch((error: unknown) => {
    app.log.warn(
      { err: error },
      'registry notifications unavailable; registries reload by version',
    );
  });
  const metrics = installMetrics(app, ctx, pool);

  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app);
  installJsonBodyParser(app);
  installNulGuard(app);
  installHostGuard(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  await app.register(cookie);
  // Agent links carry terminal output in base64 frames: allow large ones.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 * 1024 } });
  await registerOpenApi(app, config);
  app.addHook('onRoute', describeRouteDefaults);
  app.addHook('onRoute', strictQuery);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Read later: hooks of child plugins may still set the route's access.
      routes.push({
        method,
        url: route.url,
        get canonicalUrl() {
          return route.config?.canonicalUrl ?? route.url;
        },
        get api() {
          return route.config?.api ?? 'system';
        },
        get access() {
          return route.config?.access;
        },
        get rule() {
          return route.config?.rule;
        },
        get declared() {
          return route.config?.declared === true;
        },
        get guard() {
          return route.config?.guard;
        },
        websocket: route.wsHandler !== undefined || route.websocket === true,
        get operationId() {
          const id: unknown = route.schema?.operationId;
          return typeof id === 'string' ? id : undefined;
        },
      });
    }
  });
  // Before the auth hook: a browser opening the consent address goes to the app's screen.
  installBrowserPages(app);
  installAuth(
    app,
    db,
    modules.flatMap((module) => module.credentials ?? []),
    config.publicUrl,
  );

  await app.register(async (root) => {
    root.addHook('onRoute', tagRoute('content', ''));
    for (const module of modules) await module.contentRoutes?.(root, ctx);
    observabilityRoutes(root, ctx, metrics);
  });
  await app.register(
    async (mirror) => {
      mirror.addHook('onRoute', tagRoute('content', CONTENT_MIRROR_PREFIX));
      mirror.addHook('onRoute', hideFromDescription);
      for (const module of modules) await module.contentRoutes?.(mirror, ctx);
      observabilityRoutes(mirror, ctx, metrics);
    },
    { prefix: CONTENT_MIRROR_PREFIX },
  );
  await app.register(
    async (platform) => {
      platform.addHook('onRoute', tagRoute('platform', ''));
      for (const module of modules) await module.platformRoutes?.(platform, ctx);
    },
    { prefix: '/api' },
  );
  await app.register(async (root) => {
    root.addHook('onRoute', tagRoute('platform', ''));
    for (const module of modules) await module.rootPlatformRoutes?.(root, ctx);
  });
  await registerDocumentationRoutes(app);
  await registerWebApp(app, webDist);
  installInterceptors(app, ctx, modules);
  // After the interceptors: its listener goes first, for every request.
  installConnectionGuard(app);
  await app.ready();
  return { app, ctx, routes };
}

/**
 * Puts the modules' interceptors in front of the server's own `request` and
 * `upgrade` listeners (Fastify's router, @fastify/websocket's upgrades): a
 * request an interceptor takes never reaches them. `inject` bypasses them.
 */
function installInterceptors(app: FastifyInstance, ctx: AppContext, modules: readonly AppModule[]) {
  const interceptors = modules.flatMap((module) =>
    module.intercept ? [module.intercept(ctx)] : [],
  );
  if (interceptors.length === 0) return;
  const server = app.server;
  const routed = server.listeners('request');
  const upgraded = server.listeners('upgrade');
  server.removeAllListeners('request');
  server.removeAllListeners('upgrade');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const next = (index: number): void => {
      const interceptor = interceptors[index];
      if (interceptor === undefined) {
        for (const listener of routed) listener.call(server, request, response);
      } else interceptor.request(request, response, () => next(index + 1));
    };
    next(0);
  });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const next = (index: number): void => {
      const interceptor = interceptors[index];
      if (interceptor === undefined) {
        for (const listener of upgraded) listener.call(server, request, socket, head);
      } else interceptor.upgrade(request, socket, head, () => next(index + 1));
    };
    next(0);
  });
  app.addHook('onClose', async () => {
    for (const interceptor of interceptors) interceptor.close();
  });
}

/** Starts the modules' background tasks; the returned function stops them all. */
export async function startBackground(
  ctx: AppContext,
  modules: readonly AppModule[],
): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  for (const module of modules) {
    if (module.background) stops.push(await module.background(ctx));
  }
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
