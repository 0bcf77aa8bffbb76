import type { AppModule } from '../../module.js';
import { deploymentsMigrations } from './migrations.js';
import { startCronScheduler } from './cron.js';
import { moveRoutes } from './move-routes.js';
import { startRemovalSweeper } from './removals.js';
import { deploymentRoutes } from './routes.js';
import { registerServiceJobs } from '../services/jobs.js';
import { serviceLogRoutes } from '../services/log-routes.js';
import { serviceRoutes } from '../services/routes.js';
import './tables.js';

export const deploymentsModule: AppModule = {
  name: 'deployments',
  migrations: deploymentsMigrations,
  platformRoutes: (router, ctx) => {
    deploymentRoutes(router, ctx);
    serviceRoutes(router, ctx);
    moveRoutes(router, ctx);
    serviceLogRoutes(router, ctx);
    registerServiceJobs(ctx);
    const stopCron = startCronScheduler(ctx);
    const stopSweeper = startRemovalSweeper(ctx);
    router.addHook('onClose', async () => {
      stopCron();
      await stopSweeper();
    });
  },
};
