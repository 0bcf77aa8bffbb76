import type { AppModule } from '../../module.js';
import { invitationsMigrations } from './migrations.js';
import { invitationRoutes } from './routes.js';
import './tables.js';

export const invitationsModule: AppModule = {
  name: 'invitations',
  migrations: invitationsMigrations,
  contentRoutes: invitationRoutes,
};
