import type { AppModule } from '../../module.js';
import { bulkRoutes } from './routes.js';

export const bulkModule: AppModule = { name: 'bulk', contentRoutes: bulkRoutes };
