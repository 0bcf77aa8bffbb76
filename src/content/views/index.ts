import type { AppModule } from '../../module.js';
import { viewsMigrations } from './migrations.js';
import { viewRoutes } from './routes.js';
import './tables.js';

export const viewsModule: AppModule = {
  name: 'views',
  migrations: viewsMigrations,
  contentRoutes: viewRoutes,
};
