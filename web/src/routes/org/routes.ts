import { createRoute, lazyRouteComponent, type RouteComponent } from '@tanstack/react-router';
import { signedIn } from '../base.js';
import { orgRoute } from './route.js';

// Every screen of the platform dashboard, each loaded on first visit from its area's pages.
type AdminPages = typeof import('./admin/pages.js');
type ProjectPages = typeof import('./projects/pages.js');
type WorkerPages = typeof import('./workers/pages.js');
type TerminalPages = typeof import('./terminals/pages.js');
type DeploymentPages = typeof import('./deployments/pages.js');
const admin = (name: keyof AdminPages) =>
  lazyRouteComponent(() => import('./admin/pages.js'), name);
const projects = (name: keyof ProjectPages) =>
  lazyRouteComponent(() => import('./projects/pages.js'), name);
const workers = (name: keyof WorkerPages) =>
  lazyRouteComponent(() => import('./workers/pages.js'), name);
const terminals = (name: keyof TerminalPages) =>
  lazyRouteComponent(() => import('./terminals/pages.js'), name);
const deployments = (name: keyof DeploymentPages) =>
  lazyRouteComponent(() => import('./deployments/pages.js'), name);

/** A screen of the organization at `path` under /orgs/$orgId. */
function orgPage<P extends string>(path: P, component: RouteComponent) {
  return createRoute({ getParentRoute: () => orgRoute, path, component });
}

const overview = orgPage(
  '/',
  lazyRouteComponent(() => import('./overview/Overview.js'), 'OrgOverview'),
);

/** The signed-in person's own settings and secrets (not an organization's). */
export const accountRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/account',
  component: admin('AccountPage'),
});

/** A worker's terminal; the session shown is `?session=` (none: the first listed, else `main`). */
const workerTerminal = createRoute({
  getParentRoute: () => orgRoute,
  path: '/projects/$projectId/workers/$workerId/terminal',
  validateSearch: (search: Record<string, unknown>): { session?: string } =>
    typeof search.session === 'string' ? { session: search.session } : {},
  component: terminals('WorkerTerminalPage'),
});

export const orgRouteTree = orgRoute.addChildren([
  overview,
  orgPage('/members', admin('MembersPage')),
  orgPage('/nodes', admin('NodesPage')),
  orgPage('/nodes/$nodeId', admin('NodePage')),
  orgPage('/api-keys', admin('ApiKeysPage')),
  orgPage('/projects', projects('ProjectsPage')),
  orgPage('/projects/$projectId', projects('ProjectPage')),
  orgPage('/projects/$projectId/workers/$workerId', workers('WorkerPage')),
  workerTerminal,
  orgPage('/deployments', deployments('DeploymentsPage')),
  orgPage('/deployments/$deploymentId', deployments('DeploymentPage')),
  orgPage('/deployments/$deploymentId/services/$serviceId', deployments('ServicePage')),
  orgPage('/deployments/$deploymentId/services/$serviceId/shell', terminals('ServiceShellPage')),
]);
