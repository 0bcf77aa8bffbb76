import { Link, Outlet } from '@tanstack/react-router';
import { createPortal } from 'react-dom';
import { useHeaderStartSlot } from '../../components/Shell.js';
import { SidebarDrawer } from '../../components/SidebarDrawer.js';
import { NAV_LINK } from '../../components/Switcher.js';
import { useOrg } from './context.js';
import { OrgSwitcher } from './OrgSwitcher.js';

/** The sidebar's pages of an organization. */
function OrgNav() {
  const org = useOrg();
  const params = { orgId: org.id };
  return (
    <>
      <OrgSwitcher />
      <nav aria-label="Organization pages" className="flex flex-col gap-0.5">
        <Link
          to="/orgs/$orgId"
          params={params}
          activeOptions={{ exact: true }}
          className={NAV_LINK}
        >
          Overview
        </Link>
        <Link to="/orgs/$orgId/projects" params={params} className={NAV_LINK}>
          Projects
        </Link>
        <Link to="/orgs/$orgId/deployments" params={params} className={NAV_LINK}>
          Deployments
        </Link>
        <Link to="/orgs/$orgId/nodes" params={params} className={NAV_LINK}>
          Nodes
        </Link>
        <Link to="/orgs/$orgId/members" params={params} className={NAV_LINK}>
          Members
        </Link>
        <Link to="/orgs/$orgId/api-keys" params={params} className={NAV_LINK}>
          API keys
        </Link>
      </nav>
      <nav aria-label="Your account" className="mt-auto flex flex-col gap-0.5">
        <Link to="/account" className={NAV_LINK}>
          Your settings and secrets
        </Link>
      </nav>
    </>
  );
}

/**
 * An organization's frame: the sidebar (the organization switcher and its
 * pages) and the screen beside it; on a phone the sidebar is a drawer
 * opened from the header. The platform has no event stream: each screen
 * asks again for the states that move on their own while it is shown.
 */
export function OrgLayout() {
  const headerStart = useHeaderStartSlot();
  return (
    <div className="-mx-4 -mb-16 flex min-h-[calc(100vh-3.5rem)]">
      {headerStart === null
        ? null
        : createPortal(
            <SidebarDrawer>
              <OrgNav />
            </SidebarDrawer>,
            headerStart,
          )}
      <aside
        aria-label="Organization"
        className="hidden w-60 shrink-0 flex-col gap-4 border-r border-zinc-200 bg-white p-3 md:flex dark:border-zinc-800 dark:bg-zinc-900"
      >
        <OrgNav />
      </aside>
      <div className="min-w-0 flex-1 px-4 py-6">
        <Outlet />
      </div>
    </div>
  );
}
