import { accountsModule } from './content/accounts/index.js';
import { healthModule } from './content/health/index.js';
import { mergeMigrations } from './db/migrate.js';
import type { AppModule } from './module.js';

/** Every module of the service, in the order their routes are registered. */
export const modules: readonly AppModule[] = [healthModule, accountsModule];

export const allMigrations = mergeMigrations(modules.map((module) => module.migrations ?? {}));
