import type { AppModule } from '../../module.js';
import { usersMigrations } from './migrations.js';
import { userRoutes } from './routes.js';
import './tables.js';

export const usersModule: AppModule = {
  name: 'users',
  migrations: usersMigrations,
  platformRoutes: userRoutes,
};
