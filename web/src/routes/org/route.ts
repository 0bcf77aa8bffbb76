import { createRoute, lazyRouteComponent, notFound } from '@tanstack/react-router';
import { orgsQuery } from '../../api/orgs.js';
import { signedIn } from '../base.js';
import { OrgNotFound } from './NotFound.js';

/**
 * An organization of the signed-in person, by its id (organizations have no
 * slug); its screens read it with useOrg(). The frame and every screen under
 * it load on first visit, so the content workspace's first screen stays small.
 */
export const orgRoute = createRoute({
  getParentRoute: () => signedIn,
  path: '/orgs/$orgId',
  loader: async ({ context, params }) => {
    const orgs = await context.queryClient.ensureQueryData(orgsQuery);
    if (!orgs.some((org) => org.id === params.orgId)) throw notFound();
  },
  notFoundComponent: OrgNotFound,
  component: lazyRouteComponent(() => import('./Layout.js'), 'OrgLayout'),
});
