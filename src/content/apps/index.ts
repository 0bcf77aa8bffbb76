import type { AppModule } from '../../module.js';
import { APP_TOKEN_PREFIX, resolveInstallation } from './installations.js';
import { appsMigrations } from './migrations.js';
import './principal.js';
import { authorizeAppRoute } from './route-scopes.js';
import { appRoutes } from './routes.js';
import './tables.js';

export const appsModule: AppModule = {
  name: 'apps',
  migrations: appsMigrations,
  contentRoutes: appRoutes,
  credentials: [
    {
      prefix: APP_TOKEN_PREFIX,
      resolve: (db, token) => resolveInstallation(db, token),
      authorize(principal, route) {
        authorizeAppRoute(principal.kind === 'app' ? principal.scopes : [], route);
      },
    },
  ],
};
