import type { AppModule } from '../../module.js';
import { deploymentsMigrations } from './migrations.js';
import { deploymentRoutes } from './routes.js';
import { serviceLogRoutes } from './service-log-routes.js';
import { serviceRoutes } from './service-routes.js';
import './tables.js';

export const deploymentsModule: AppModule = {
  name: 'deployments',
  migrations: deploymentsMigrations,
  platformRoutes: (router, ctx) => {
    deploymentRoutes(router, ctx);
    serviceRoutes(router, ctx);
    serviceLogRoutes(router, ctx);
  },
};
