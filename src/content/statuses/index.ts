import type { AppModule } from '../../module.js';
import { statusesMigrations } from './migrations.js';
import { statusRoutes } from './routes.js';
import './tables.js';

export const statusesModule: AppModule = {
  name: 'statuses',
  migrations: statusesMigrations,
  contentRoutes: statusRoutes,
};
