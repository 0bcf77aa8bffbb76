import type { AppModule } from '../../module.js';
import { itemsMigrations } from './migrations.js';
import { itemRoutes } from './routes.js';
import './tables.js';

export const itemsModule: AppModule = {
  name: 'items',
  migrations: itemsMigrations,
  contentRoutes: itemRoutes,
};
