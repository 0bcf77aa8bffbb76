import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { RouteRecord } from './app.js';
import type { Config } from './config.js';
import type { RegistryCache } from './content/fields/registry-cache.js';
import type { DatabaseKind } from './db/connect.js';
import type { Listener } from './db/listen.js';
import type { Migrations } from './db/migrate.js';
import type { Database } from './db/schema.js';
import type { EventSink } from './events/writer.js';
import type { CredentialResolver } from './http/auth.js';
import type { AppRuntime } from './runtime.js';

/** What an app is built on: configuration, the database pool and the app's listener. */
export interface AppBase {
  config: Config;
  db: Database;
  dbKind: DatabaseKind;
  log: FastifyBaseLogger;
  /** LISTEN/NOTIFY over the app's own connection (`db/listen.ts`); closed with the app. */
  listener: Listener;
  /** The workspaces' registries this app holds in memory (`content/fields/registry-cache.ts`). */
  registries: RegistryCache;
  /** Every route of this app, filled as they register (the tool server finds operations here). */
  routes: readonly RouteRecord[];
}

/**
 * What every module is given: the app's base and what the app holds in
 * memory (`runtime.ts`), built once per app, so apps in one process share none of it.
 */
export interface AppContext extends AppBase, AppRuntime {}

/** Fastify with TypeBox types for params, query, body and responses. */
export type Router = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type RoutePlugin = (router: Router, ctx: AppContext) => Promise<void> | void;

/** Takes requests and upgrades meant for it before the router does (see `AppModule.intercept`). */
export interface Interceptor {
  /** Answers the request, or calls `pass` (at once or after a look-up) to let it go on. */
  request(request: IncomingMessage, response: ServerResponse, pass: () => void): void;
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, pass: () => void): void;
  close(): void;
}

/** A background task started with the server; the returned function stops it. */
export type BackgroundTask = (ctx: AppContext) => Promise<() => Promise<void>>;

/**
 * A module is a folder under `src/content/` or `src/platform/` exporting one
 * of these. Adding a module is adding its folder and a line in `modules.ts`.
 */
export interface AppModule {
  name: string;
  /** Tables this module owns; names begin with a date so they apply in order. */
  migrations?: Migrations;
  /** Bearer token kinds this module issues. */
  credentials?: readonly CredentialResolver[];
  /** Content-API routes, served at `/` and again under `/api`. */
  contentRoutes?: RoutePlugin;
  /** Platform-API routes, served under `/api` only. */
  platformRoutes?: RoutePlugin;
  /** Platform-API routes served at the root, outside `/api`: the tool server's `/mcp`. */
  rootPlatformRoutes?: RoutePlugin;
  background?: BackgroundTask;
  /**
   * Sees the HTTP server's requests and upgrades before the router (service
   * URLs are proxied, not routed; see `platform/routing`).
   */
  intercept?: (ctx: AppContext) => Interceptor;
  /** Work done in the transaction that writes events, with those events (see `EventSink`). */
  eventSinks?: readonly EventSink[];
}
