import { buildApp, startBackground } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { allMigrations, modules } from '../modules.js';
import { bootstrapAdminAccount, logFirstRunHints } from './first-run.js';

export async function serve(config: Config): Promise<void> {
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db, allMigrations);
    const { app, ctx } = await buildApp({
      config,
      db: database.db,
      dbKind: database.kind,
      modules,
      pool: database.pool,
      notifications: database.notifications,
    });
    const hasAccount = await bootstrapAdminAccount(database.db, config, app.log);
    const stopBackground = await startBackground(ctx, modules);
    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      app.log.info({ signal }, 'shutting down');
      await stopBackground();
      await app.close();
      await database.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void shutdown('SIGINT'));
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    await app.listen({ port: config.port, host: config.host });
    logFirstRunHints(app.log, config, { database: database.kind, hasAccount });
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
}
