import type { AppModule } from '../../module.js';
import { overviewRoutes } from './routes.js';

export const overviewModule: AppModule = { name: 'overview', contentRoutes: overviewRoutes };
