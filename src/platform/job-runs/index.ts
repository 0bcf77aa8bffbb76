import type { AppModule } from '../../module.js';
import { jobRunsMigrations } from './migrations.js';
import './tables.js';

export const jobRunsModule: AppModule = {
  name: 'job-runs',
  migrations: jobRunsMigrations,
};
