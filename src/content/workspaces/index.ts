import type { AppModule } from '../../module.js';
import { workspacesMigrations } from './migrations.js';
import { workspaceRoutes } from './routes.js';
import './tables.js';

export const workspacesModule: AppModule = {
  name: 'workspaces',
  migrations: workspacesMigrations,
  contentRoutes: workspaceRoutes,
};
