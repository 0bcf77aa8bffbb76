import { forbidden } from '../../http/errors.js';
import type { AppModule } from '../../module.js';
import { apiKeysMigrations } from './migrations.js';
import './principal.js';
import { apiKeyRoutes } from './routes.js';
import { resolveKey, WORKSPACE_KEY_PREFIX } from './service.js';
import './tables.js';

export const apiKeysModule: AppModule = {
  name: 'workspace-api-keys',
  migrations: apiKeysMigrations,
  contentRoutes: apiKeyRoutes,
  credentials: [
    {
      prefix: WORKSPACE_KEY_PREFIX,
      resolve: (db, token) => resolveKey(db, token),
      authorize(_principal, route) {
        if (route.api !== 'content') {
          throw forbidden(
            'credential_not_accepted',
            'A workspace API key works on the content API only',
          );
        }
      },
    },
  ],
};
