import { accountsModule } from './content/accounts/index.js';
import { healthModule } from './content/health/index.js';
import { mergeMigrations } from './db/migrate.js';
import type { AppModule } from './module.js';
import { apiKeysModule } from './platform/api-keys/index.js';
import { orgsModule } from './platform/orgs/index.js';
import { projectsModule } from './platform/projects/index.js';
import { secretsModule } from './platform/secrets/index.js';
import { usersModule } from './platform/users/index.js';

/** Every module of the service, in the order their routes are registered. */
export const modules: readonly AppModule[] = [
  healthModule,
  accountsModule,
  secretsModule,
  orgsModule,
  apiKeysModule,
  projectsModule,
  usersModule,
];

export const allMigrations = mergeMigrations(modules.map((module) => module.migrations ?? {}));
