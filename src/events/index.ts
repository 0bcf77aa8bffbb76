import type { AppModule } from '../module.js';
import { eventsMigrations } from './migrations.js';
import { eventRoutes } from './routes.js';
import './tables.js';

export const eventsModule: AppModule = {
  name: 'events',
  migrations: eventsMigrations,
  contentRoutes: eventRoutes,
};
