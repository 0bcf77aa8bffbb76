import type { AppModule } from '../module.js';
import { accountsMigrations } from './migrations.js';
import { accountRoutes } from './routes.js';
import { resolveSession, SESSION_TOKEN_PREFIX } from './service.js';
import './tables.js';

export const accountsModule: AppModule = {
  name: 'accounts',
  migrations: accountsMigrations,
  credentials: [
    { prefix: SESSION_TOKEN_PREFIX, resolve: (db, token) => resolveSession(db, token) },
  ],
  contentRoutes: accountRoutes,
};
