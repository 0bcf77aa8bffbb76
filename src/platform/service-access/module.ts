import type { AppModule } from '../../module.js';
import { serviceAccessMigrations } from './migrations.js';
import { serviceAccessRoutes } from './routes.js';
import './tables.js';

/** Private services (the sign-in to a service's domain) and custom domains (verification, TLS ask). */
export const serviceAccessModule: AppModule = {
  name: 'service-access',
  migrations: serviceAccessMigrations,
  platformRoutes: serviceAccessRoutes,
};
