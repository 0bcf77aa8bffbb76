import type { AppModule } from '../../module.js';
import { importsMigrations } from './migrations.js';
import { importRoutes } from './routes.js';
import './tables.js';

export const importsModule: AppModule = {
  name: 'imports',
  migrations: importsMigrations,
  contentRoutes: importRoutes,
};
