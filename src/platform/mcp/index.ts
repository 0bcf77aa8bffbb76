import type { AppModule } from '../../module.js';
import { mcpRoutes } from './server.js';

/** The agent tool server at `/mcp` (MCP over stateless Streamable HTTP). */
export const mcpModule: AppModule = {
  name: 'mcp',
  rootPlatformRoutes: mcpRoutes,
};
