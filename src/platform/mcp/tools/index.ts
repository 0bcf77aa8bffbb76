import type { Tool } from '../tool.js';
import { commandTools } from './commands.js';
import { deploymentTools } from './deployments.js';
import { inspectTools } from './inspect.js';
import { nodeTools } from './nodes.js';
import { orgTools } from './orgs.js';
import { projectTools } from './projects.js';
import { searchTools } from './search.js';
import { workerTools } from './workers.js';

/** Every tool of the tool server, in the order tools/list shows them. */
export const TOOLS: readonly Tool[] = [
  ...searchTools,
  ...orgTools,
  ...projectTools,
  ...workerTools,
  ...commandTools,
  ...inspectTools,
  ...nodeTools,
  ...deploymentTools,
];
