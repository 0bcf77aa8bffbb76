import type { AppModule } from '../../module.js';
import { jobRunsMigrations } from './migrations.js';
import { jobRunRoutes } from './routes.js';
import './tables.js';

export const jobRunsModule: AppModule = {
  name: 'job-runs',
  migrations: jobRunsMigrations,
  platformRoutes: jobRunRoutes,
};
