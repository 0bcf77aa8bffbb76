import type { AppModule } from '../../module.js';
import { deploymentsMigrations } from './migrations.js';
import { deploymentRoutes } from './routes.js';
import './tables.js';

/** Deployments; their migrations also create the services' tables (see `services/index.ts`). */
export const deploymentsModule: AppModule = {
  name: 'deployments',
  migrations: deploymentsMigrations,
  platformRoutes: (router, ctx) => {
    deploymentRoutes(router, ctx);
  },
};
