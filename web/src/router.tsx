import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  redirect,
} from '@tanstack/react-router';
import { meQuery } from './api/session.js';
import { Shell } from './components/Shell.js';
import { Register } from './routes/register/Register.js';
import { SignIn } from './routes/sign-in/SignIn.js';
import { Workspace } from './routes/workspace/Workspace.js';
import { Workspaces } from './routes/workspaces/Workspaces.js';

interface RouterContext {
  queryClient: QueryClient;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Shell });

/** Screens for a person without a session: a signed-in one goes to the workspaces. */
const signedOut = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-out',
  beforeLoad: async ({ context }) => {
    if (await context.queryClient.ensureQueryData(meQuery)) throw redirect({ to: '/' });
  },
});

/** Screens that need a session: without one, to the sign-in screen. */
const signedIn = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context }) => {
    if (!(await context.queryClient.ensureQueryData(meQuery))) throw redirect({ to: '/sign-in' });
  },
});

const signInRoute = createRoute({
  getParentRoute: () => signedOut,
  path: '/sign-in',
  component: SignIn,
});

const registerRoute = createRoute({
  getParentRoute: () => signedOut,
  path: '/register',
  component: Register,
});

const workspacesRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/',
  component: Workspaces,
});

const workspaceRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/$workspaceSlug',
  component: function WorkspaceScreen() {
    const { workspaceSlug } = workspaceRoute.useParams();
    return <Workspace slug={workspaceSlug} />;
  },
});

const routeTree = rootRoute.addChildren([
  signedOut.addChildren([signInRoute, registerRoute]),
  signedIn.addChildren([workspacesRoute, workspaceRoute]),
]);

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    basepath: '/app',
    context: { queryClient },
    defaultPreload: 'intent',
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
