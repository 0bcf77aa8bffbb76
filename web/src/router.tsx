import type { QueryClient } from '@tanstack/react-query';
import {
  createRoute,
  createRouter,
  lazyRouteComponent,
  notFound,
  type RouteComponent,
} from '@tanstack/react-router';
import { workspacesQuery } from './api/workspaces.js';
import { rootRoute, type SignInSearch, signedIn, signedOut } from './routes/base.js';
import { Invite } from './routes/invite/Invite.js';
import { Consent } from './routes/oauth/Consent.js';
import { consentSearch } from './routes/oauth/search.js';
import { accountRoute, orgRouteTree } from './routes/org/routes.js';
import { Register } from './routes/register/Register.js';
import { SignIn } from './routes/sign-in/SignIn.js';
import { activitySearch } from './routes/workspace/activity/search.js';
import { CardPage } from './routes/workspace/card/CardPage.js';
import { WorkspaceLayout } from './routes/workspace/Layout.js';
import { ListScreen } from './routes/workspace/list/ListScreen.js';
import { listSearch } from './routes/workspace/list/search.js';
import { WorkspaceNotFound } from './routes/workspace/NotFound.js';
import { Overview } from './routes/workspace/overview/Overview.js';
import { preloadList, preloadWorkspace } from './routes/workspace/preload.js';
import { SettingsLayout } from './routes/workspace/settings/SettingsLayout.js';
import { Workspaces } from './routes/workspaces/Workspaces.js';

const signInRoute = createRoute({
  getParentRoute: () => signedOut,
  path: '/sign-in',
  validateSearch: (search: Record<string, unknown>): SignInSearch => ({
    ...(typeof search.redirect === 'string' ? { redirect: search.redirect } : {}),
    ...(typeof search.idpError === 'string' ? { idpError: search.idpError } : {}),
  }),
  component: SignIn,
});

const registerRoute = createRoute({
  getParentRoute: () => signedOut,
  path: '/register',
  // Where the person was headed, carried from the sign-in screen: they go on there once registered.
  validateSearch: (search: Record<string, unknown>): Pick<SignInSearch, 'redirect'> =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  component: Register,
});

/** An invitation link, opened signed in or not (the screen explains both). */
const inviteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invite',
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' ? { token: search.token } : {},
  component: Invite,
});

/** The consent page of a third-party app (the query string of the OAuth authorize request). */
const consentRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/oauth/authorize',
  validateSearch: consentSearch,
  component: Consent,
});

const workspacesRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/',
  component: Workspaces,
});

/** The id of the signed-in person's workspace of this slug (404 page when there is none). */
async function workspaceIdOf(client: QueryClient, slug: string): Promise<string> {
  const workspaces = await client.ensureQueryData(workspacesQuery);
  const workspace = workspaces.find((candidate) => candidate.slug === slug);
  if (workspace === undefined) throw notFound();
  return workspace.id;
}

/** A workspace of the signed-in person, by its slug; its screens read it with useWorkspace(). */
export const workspaceRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/$workspaceSlug',
  loader: async ({ context, params }) => {
    const workspaceId = await workspaceIdOf(context.queryClient, params.workspaceSlug);
    // Not awaited: the frame shows while these load, alongside the child route's loader.
    void preloadWorkspace(context.queryClient, workspaceId);
    return { workspaceId };
  },
  notFoundComponent: WorkspaceNotFound,
  component: WorkspaceLayout,
});

const overviewRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/',
  component: Overview,
});

export const listRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/lists/$listId',
  validateSearch: listSearch,
  loader: async ({ context, params }) => {
    const workspaceId = await workspaceIdOf(context.queryClient, params.workspaceSlug);
    await preloadList(context.queryClient, workspaceId, params.listId);
  },
  component: ListScreen,
});

const activityRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/activity',
  validateSearch: activitySearch,
  component: lazyRouteComponent(
    () => import('./routes/workspace/activity/Activity.js'),
    'Activity',
  ),
});

const settingsRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/settings',
  component: SettingsLayout,
});

/** A settings page at its own address under /settings, its code loaded on first visit. */
function settingsPage<P extends string>(path: P, component: RouteComponent) {
  return createRoute({ getParentRoute: () => settingsRoute, path, component });
}

type SettingsModule = typeof import('./routes/workspace/settings/pages.js');
const settings = (name: keyof SettingsModule) =>
  lazyRouteComponent(() => import('./routes/workspace/settings/pages.js'), name);

/** The settings pages, each at its own address under /settings. */
const settingsPages = [
  settingsPage('/', settings('GeneralSettings')),
  settingsPage('/members', settings('MembersSettings')),
  settingsPage('/fields', settings('FieldsSettings')),
  settingsPage('/statuses', settings('StatusesSettings')),
  settingsPage('/api-keys', settings('ApiKeysSettings')),
  settingsPage('/webhooks', settings('WebhooksSettings')),
  settingsPage('/webhooks/$endpointId', settings('WebhookDetail')),
  settingsPage('/apps', settings('AppsSettings')),
] as const;

export const cardRoute = createRoute({
  getParentRoute: () => workspaceRoute,
  path: '/$cardKey',
  component: CardPage,
});

// A static top-level path here shadows a workspace slug: add its first segment to the slugs the
// API refuses (src/content/workspaces/reserved-slugs.ts).
const routeTree = rootRoute.addChildren([
  signedOut.addChildren([signInRoute, registerRoute]),
  inviteRoute,
  signedIn.addChildren([
    workspacesRoute,
    consentRoute,
    workspaceRoute.addChildren([
      overviewRoute,
      listRoute,
      activityRoute,
      settingsRoute.addChildren(settingsPages),
      cardRoute,
    ]),
    orgRouteTree,
    accountRoute,
  ]),
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
