import type { AppModule } from '../../module.js';
import { collectionsMigrations } from './migrations.js';
import { collectionRoutes } from './routes.js';
import './tables.js';

export const collectionsModule: AppModule = {
  name: 'collections',
  migrations: collectionsMigrations,
  contentRoutes: collectionRoutes,
};
