import type { AppModule } from '../../module.js';
import { healthRoutes } from './routes.js';

export const healthModule: AppModule = { name: 'health', contentRoutes: healthRoutes };
