import { Link, Outlet } from '@tanstack/react-router';
import { useWorkspace } from '../context.js';

const PAGES = [
  { to: '/$workspaceSlug/settings', label: 'General', exact: true },
  { to: '/$workspaceSlug/settings/members', label: 'Members', exact: false },
  { to: '/$workspaceSlug/settings/fields', label: 'Fields', exact: false },
  { to: '/$workspaceSlug/settings/statuses', label: 'Statuses', exact: false },
  { to: '/$workspaceSlug/settings/api-keys', label: 'API keys', exact: false },
  { to: '/$workspaceSlug/settings/webhooks', label: 'Webhooks', exact: false },
  { to: '/$workspaceSlug/settings/apps', label: 'Installed apps', exact: false },
] as const;

/** The settings of a workspace: its pages as tabs, the page below. */
export function SettingsLayout() {
  const workspace = useWorkspace();
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="mb-4 text-2xl font-semibold">Settings</h1>
      <nav
        aria-label="Settings pages"
        className="mb-6 flex flex-wrap gap-1 border-b border-zinc-200 dark:border-zinc-800"
      >
        {PAGES.map((page) => (
          <Link
            key={page.to}
            to={page.to}
            params={{ workspaceSlug: workspace.slug }}
            activeOptions={{ exact: page.exact }}
            className="-mb-px border-b-2 border-transparent px-3 py-2 text-sm text-zinc-700 hover:text-zinc-950 focus-visible:outline-2 focus-visible:outline-blue-600 data-[status=active]:border-blue-700 data-[status=active]:font-medium data-[status=active]:text-zinc-950 dark:text-zinc-300 dark:data-[status=active]:border-blue-400 dark:data-[status=active]:text-zinc-50"
          >
            {page.label}
          </Link>
        ))}
      </nav>
      <Outlet />
    </div>
  );
}
