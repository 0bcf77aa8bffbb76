import { Outlet } from '@tanstack/react-router';
import { createPortal } from 'react-dom';
import { useHeaderStartSlot } from '../../components/Shell.js';
import { SidebarDrawer } from '../../components/SidebarDrawer.js';
import { useLiveEvents } from '../../live/useLiveEvents.js';
import { useWorkspace } from './context.js';
import { useWorkspaceCommands } from './frame/useWorkspaceCommands.js';
import { WorkspaceSidebar } from './frame/WorkspaceSidebar.js';

/**
 * A workspace's frame: the sidebar (the workspace switcher, the overview,
 * the lists, the activity and the settings) and the screen beside it; on a
 * phone the sidebar is a drawer opened from the header. While it is shown,
 * the workspace's event stream keeps every screen's data fresh.
 */
export function WorkspaceLayout() {
  const workspace = useWorkspace();
  const live = useLiveEvents(workspace.id);
  useWorkspaceCommands();
  const headerStart = useHeaderStartSlot();
  return (
    <div className="-mx-4 -mb-16 flex min-h-[calc(100vh-3.5rem)]" data-live={live}>
      {headerStart === null
        ? null
        : createPortal(
            <SidebarDrawer>
              <WorkspaceSidebar />
            </SidebarDrawer>,
            headerStart,
          )}
      <aside
        aria-label="Workspace"
        className="hidden w-60 shrink-0 flex-col gap-4 border-r border-zinc-200 bg-white p-3 md:flex dark:border-zinc-800 dark:bg-zinc-900"
      >
        <WorkspaceSidebar />
      </aside>
      <div className="min-w-0 flex-1 px-4 py-6">
        {live === 'offline' ? (
          <p
            role="status"
            className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            Live updates are paused: reconnecting…
          </p>
        ) : null}
        <Outlet />
      </div>
    </div>
  );
}
