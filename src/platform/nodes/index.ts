import type { AppModule } from '../../module.js';
import { documentKeyRules } from '../access/route-scopes.js';
import { agentConnectRoute } from './connect-route.js';
import { localAgentTask } from './local-agent.js';
import { nodesMigrations } from './migrations.js';
import { nodeRoutes } from './routes.js';
import './tables.js';

export const nodesModule: AppModule = {
  name: 'nodes',
  migrations: nodesMigrations,
  platformRoutes: async (router, ctx) => {
    agentConnectRoute(router, ctx);
    await documentKeyRules(async (scoped, scopedCtx) => nodeRoutes(scoped, scopedCtx))(router, ctx);
  },
  background: localAgentTask,
};
