import type { AppModule } from '../../module.js';
import { registerBuildJobs } from './jobs.js';
import { imageBuildsMigrations } from './migrations.js';
import { recoverInterruptedBuilds } from './recovery.js';
import { imageBuildRoutes } from './routes.js';
import './tables.js';

export const imageBuildsModule: AppModule = {
  name: 'image-builds',
  migrations: imageBuildsMigrations,
  platformRoutes: async (router, ctx) => {
    registerBuildJobs(ctx);
    recoverInterruptedBuilds(ctx);
    imageBuildRoutes(router, ctx);
  },
};
