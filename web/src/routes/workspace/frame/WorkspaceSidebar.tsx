import { Link } from '@tanstack/react-router';
import { NAV_LINK } from '../../../components/Switcher.js';
import { useWorkspace } from '../context.js';
import { ListsNav } from '../sidebar/ListsNav.js';
import { WorkspaceSwitcher } from '../sidebar/WorkspaceSwitcher.js';

/**
 * What the sidebar holds (the workspace switcher, the overview, the lists,
 * the activity and the settings): beside the screen on a wide window, in the
 * drawer on a phone.
 */
export function WorkspaceSidebar() {
  const workspace = useWorkspace();
  const params = { workspaceSlug: workspace.slug };
  return (
    <>
      <WorkspaceSwitcher />
      <nav aria-label="Workspace pages" className="flex flex-col gap-0.5">
        <Link
          to="/$workspaceSlug"
          params={params}
          activeOptions={{ exact: true }}
          className={NAV_LINK}
        >
          Overview
        </Link>
        <Link to="/$workspaceSlug/activity" params={params} className={NAV_LINK}>
          Activity
        </Link>
        <Link to="/$workspaceSlug/settings" params={params} className={NAV_LINK}>
          Settings
        </Link>
      </nav>
      <ListsNav />
    </>
  );
}
