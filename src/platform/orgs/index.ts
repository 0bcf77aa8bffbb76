import type { AppModule } from '../../module.js';
import { orgsMigrations } from './migrations.js';
import { orgRoutes } from './routes.js';
import './tables.js';

export const orgsModule: AppModule = {
  name: 'orgs',
  migrations: orgsMigrations,
  platformRoutes: orgRoutes,
};
