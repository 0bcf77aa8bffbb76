import type { AppModule } from '../../module.js';
import { runDispatcher } from './dispatcher.js';
import { webhooksMigrations } from './migrations.js';
import { webhookRoutes } from './routes.js';
import { queueDeliveries } from './sink.js';
import './tables.js';

export const webhooksModule: AppModule = {
  name: 'webhooks',
  migrations: webhooksMigrations,
  contentRoutes: webhookRoutes,
  eventSinks: [queueDeliveries],
  background: (ctx) => runDispatcher(ctx.db, ctx.config, ctx.log),
};
