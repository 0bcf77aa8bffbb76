import type { AppModule } from '../../module.js';
import { agentConnectRoute } from './connect-route.js';
import { localAgentTask } from './local-agent.js';
import { nodesMigrations } from './migrations.js';
import { nodeRoutes } from './routes.js';
import './tables.js';

export const nodesModule: AppModule = {
  name: 'nodes',
  migrations: nodesMigrations,
  platformRoutes: (router, ctx) => {
    agentConnectRoute(router, ctx);
    nodeRoutes(router, ctx);
  },
  background: localAgentTask,
};
