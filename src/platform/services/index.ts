import type { AppModule } from '../../module.js';
import { startCronScheduler } from './cron.js';
import { registerServiceJobs } from './jobs.js';
import { serviceLogRoutes } from './log-routes.js';
import { moveRoutes } from './move-routes.js';
import { startRemovalSweeper } from './removals.js';
import { serviceRoutes } from './routes.js';
import './tables.js';

/**
 * Services of deployments: their routes, moves, deploy jobs, cron and
 * container removals. Their tables are created by the deployments module's
 * migrations (one migration made both, and released migrations never move).
 */
export const servicesModule: AppModule = {
  name: 'services',
  platformRoutes: (router, ctx) => {
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
