import type { AppModule } from '../../module.js';
import { filesMigrations } from './migrations.js';
import { fileRoutes } from './routes.js';
import './tables.js';

export const filesModule: AppModule = {
  name: 'files',
  migrations: filesMigrations,
  contentRoutes: fileRoutes,
};
