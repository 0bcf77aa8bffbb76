import type { AppModule } from '../../module.js';
import { execRoutes } from './exec-routes.js';
import { inspectRoutes } from './inspect-routes.js';
import { inventoryRoute } from './inventory-route.js';
import { workersMigrations } from './migrations.js';
import { watchNodes } from './reconcile.js';
import { workerRoutes } from './routes.js';
import { sshRoute } from './ssh-route.js';
import { authorizeSshToken, resolveSshToken, SSH_TOKEN_PREFIX } from './ssh-tokens.js';
import { terminalRoutes } from './terminal-routes.js';
import { terminalSocketRoute } from './terminal-socket.js';
import './tables.js';

export const workersModule: AppModule = {
  name: 'workers',
  migrations: workersMigrations,
  credentials: [
    {
      prefix: SSH_TOKEN_PREFIX,
      resolve: (db, token) => resolveSshToken(db, token),
      authorize: authorizeSshToken,
    },
  ],
  platformRoutes: async (router, ctx) => {
    const lifecycle = ctx.workers;
    watchNodes(ctx, lifecycle);
    lifecycle.register();
    workerRoutes(router, ctx);
    inspectRoutes(router, ctx);
    execRoutes(router, ctx);
    terminalRoutes(router, ctx);
    terminalSocketRoute(router, ctx);
    sshRoute(router, ctx);
    inventoryRoute(router, ctx);
  },
};
