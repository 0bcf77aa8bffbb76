import type { AppModule } from '../../module.js';
import { documentKeyRules } from '../access/route-scopes.js';
import { execRoutes } from './exec-routes.js';
import { inspectRoutes } from './inspect-routes.js';
import { inventoryRoute } from './inventory-route.js';
import { workerLifecycle } from './lifecycle.js';
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
    const lifecycle = workerLifecycle(ctx);
    watchNodes(ctx, lifecycle);
    router.addHook('onClose', () => lifecycle.tasks.drain());
    await documentKeyRules(async (scoped, scopedCtx) => {
      workerRoutes(scoped, scopedCtx);
      inspectRoutes(scoped, scopedCtx);
      execRoutes(scoped, scopedCtx);
      terminalRoutes(scoped, scopedCtx);
      terminalSocketRoute(scoped, scopedCtx);
      sshRoute(scoped, scopedCtx);
      inventoryRoute(scoped, scopedCtx);
    })(router, ctx);
  },
};
