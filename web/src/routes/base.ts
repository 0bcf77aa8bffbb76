import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, redirect } from '@tanstack/react-router';
import { meQuery } from '../api/session.js';
import { Shell } from '../components/Shell.js';
import { appHref, isServerPath, safeRedirect } from './sign-in/redirect.js';

export interface RouterContext {
  queryClient: QueryClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({ component: Shell });

/** Where a screen that needs a session sends a person without one: back here after signing in. */
export interface SignInSearch {
  redirect?: string;
  /** Why the identity provider sent the person back without a session (GET /auth/idp/callback). */
  idpError?: string;
}

/** Screens for a person without a session: a signed-in one goes where they were headed. */
export const signedOut = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-out',
  beforeLoad: async ({ context, location }) => {
    if (await context.queryClient.ensureQueryData(meQuery)) {
      // Signed in (as when the identity provider sends the person back here): on to where they were headed.
      const search: Record<string, unknown> = location.search;
      const target = typeof search.redirect === 'string' ? search.redirect : undefined;
      const destination = safeRedirect(target);
      // A private service's sign-in step is the server's: a full page load, not the router.
      if (isServerPath(destination)) throw redirect({ href: destination, reloadDocument: true });
      throw redirect({ href: appHref(destination) });
    }
  },
});

/** Screens that need a session: without one, to the sign-in screen, then back. */
export const signedIn = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  beforeLoad: async ({ context, location }) => {
    if (!(await context.queryClient.ensureQueryData(meQuery))) {
      throw redirect({ to: '/sign-in', search: { redirect: location.href } });
    }
  },
});
