import { accountsModule } from './accounts/index.js';
import { apiKeysModule as workspaceApiKeysModule } from './content/api-keys/index.js';
import { appsModule } from './content/apps/index.js';
import { bulkModule } from './content/bulk/index.js';
import { collectionsModule } from './content/collections/index.js';
import { fieldsModule } from './content/fields/index.js';
import { filesModule } from './content/files/index.js';
import { healthModule } from './content/health/index.js';
import { identityModule } from './content/identity/index.js';
import { importsModule } from './content/imports/index.js';
import { invitationsModule } from './content/invitations/index.js';
import { itemsModule } from './content/items/index.js';
import { overviewModule } from './content/overview/index.js';
import { queriesModule } from './content/queries/index.js';
import { statusesModule } from './content/statuses/index.js';
import { viewsModule } from './content/views/index.js';
import { webhooksModule } from './content/webhooks/index.js';
import { workspacesModule } from './content/workspaces/index.js';
import { mergeMigrations } from './db/migrate.js';
import { eventsModule } from './events/index.js';
import type { AppModule } from './module.js';
import { apiKeysModule as orgApiKeysModule } from './platform/api-keys/index.js';
import { deploymentsModule } from './platform/deployments/index.js';
import { imageBuildsModule } from './platform/image-builds/index.js';
import { jobsModule } from './platform/job-queue/index.js';
import { jobRunsModule } from './platform/job-runs/index.js';
import { mcpModule } from './platform/mcp/index.js';
import { nodesModule } from './platform/nodes/index.js';
import { orgsModule } from './platform/orgs/index.js';
import { projectsModule } from './platform/projects/index.js';
import { relayModule } from './platform/relay/index.js';
import { routingModule } from './platform/routing/index.js';
import { secretsModule } from './platform/secrets/index.js';
import { serviceAccessModule } from './platform/service-access/module.js';
import { servicesModule } from './platform/services/index.js';
import { usersModule } from './platform/users/index.js';
import { workersModule } from './platform/workers/index.js';

/** Every module of the service, in the order their routes are registered. */
export const modules: readonly AppModule[] = [
  healthModule,
  accountsModule,
  workspacesModule,
  eventsModule,
  statusesModule,
  filesModule,
  fieldsModule,
  collectionsModule,
  viewsModule,
  itemsModule,
  workspaceApiKeysModule,
  overviewModule,
  queriesModule,
  bulkModule,
  secretsModule,
  orgsModule,
  orgApiKeysModule,
  projectsModule,
  usersModule,
  nodesModule,
  jobsModule,
  relayModule,
  workersModule,
  imageBuildsModule,
  deploymentsModule,
  servicesModule,
  jobRunsModule,
  routingModule,
  mcpModule,
  webhooksModule,
  serviceAccessModule,
  importsModule,
  invitationsModule,
  appsModule,
  identityModule,
];

export const allMigrations = mergeMigrations(modules.map((module) => module.migrations ?? {}));
