import type { AppModule } from '../../module.js';
import { projectsMigrations } from './migrations.js';
import { projectRoutes } from './routes.js';
import { projectSecretRoutes } from './secret-routes.js';
import { projectVersionRoutes } from './version-routes.js';
import './tables.js';

export const projectsModule: AppModule = {
  name: 'projects',
  migrations: projectsMigrations,
  platformRoutes: (router, ctx) => {
    projectRoutes(router, ctx);
    projectSecretRoutes(router, ctx);
    projectVersionRoutes(router, ctx);
  },
};
