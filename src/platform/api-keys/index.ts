import type { AppModule } from '../../module.js';
import { authorizeKeyRoute } from '../access/route-scopes.js';
import { apiKeysMigrations } from './migrations.js';
import { apiKeyRoutes } from './routes.js';
import { API_KEY_PREFIX, resolveKey } from './service.js';
import './tables.js';

export const apiKeysModule: AppModule = {
  name: 'api-keys',
  migrations: apiKeysMigrations,
  credentials: [
    {
      prefix: API_KEY_PREFIX,
      resolve: (db, token, request) => resolveKey(db, token, request.log),
      authorize(principal, route) {
        if (principal.kind === 'org_key') authorizeKeyRoute(principal.scopes, route);
      },
    },
  ],
  platformRoutes: apiKeyRoutes,
};
