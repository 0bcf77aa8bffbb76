import type { AppModule } from '../../module.js';
import { identityMigrations } from './migrations.js';
import { identityRoutes } from './routes.js';
import './tables.js';

export const identityModule: AppModule = {
  name: 'identity',
  migrations: identityMigrations,
  contentRoutes: identityRoutes,
};
