import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp, type RouteRecord } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { DatabaseKind } from '../../src/db/connect.js';
import type { NotificationSource } from '../../src/db/listen.js';
import type { Database } from '../../src/db/schema.js';
import type { AppContext, AppModule } from '../../src/module.js';
import { modules } from '../../src/modules.js';
import { createTestDatabase } from './database.js';
import { type Client, createClient } from './http.js';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every registered route (both roots), with the access it declares. */
  routes: readonly RouteRecord[];
  db: Database;
  dbKind: DatabaseKind;
  /** The database's LISTEN/NOTIFY source factory (another app on the same database takes its own). */
  notifications?: () => NotificationSource;
  /** A client for the root `/`; `api` is the same for the `/api` root. */
  http: Client<''>;
  api: Client<'/api'>;
  close(): Promise<void>;
}

/**
 * The real application on a fresh database of its own. `env` overrides
 * environment variables (REGISTRATION_MODE, ...); logs are silent unless
 * TEST_LOG_LEVEL says otherwise.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  extraModules: readonly AppModule[] = [],
  options: { logStream?: DestinationStream } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(join(tmpdir(), 'sparrow-test-data-'));
  const config = loadConfig({
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    // Not to connect (the database is open): for what opens its own connection, as LISTEN does.
    ...(database.url === undefined ? {} : { DATABASE_URL: database.url }),
    ...env,
  });
  const { app, ctx, routes } = await buildApp({
    config,
    db: database.db,
    dbKind: database.kind,
    modules: [...modules, ...extraModules],
    notifications: database.notifications,
    logStream: options.logStream,
  });
  return {
    app,
    ctx,
    routes,
    db: database.db,
    dbKind: database.kind,
    notifications: database.notifications,
    http: createClient(app, ''),
    api: createClient(app, '/api'),
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
