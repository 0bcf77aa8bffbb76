import type { AppModule } from '../../module.js';
import { fieldsMigrations } from './migrations.js';
import { fieldRoutes } from './routes.js';
import './tables.js';

export const fieldsModule: AppModule = {
  name: 'fields',
  migrations: fieldsMigrations,
  contentRoutes: fieldRoutes,
};
