import { useNavigate } from '@tanstack/react-router';
import { type Command, useCommands } from '../../../commands/registry.js';
import { useWorkspace } from '../context.js';

const SETTINGS_PAGES = [
  { to: '/$workspaceSlug/settings/members', label: 'Members' },
  { to: '/$workspaceSlug/settings/fields', label: 'Fields' },
  { to: '/$workspaceSlug/settings/statuses', label: 'Statuses' },
  { to: '/$workspaceSlug/settings/api-keys', label: 'API keys' },
  { to: '/$workspaceSlug/settings/webhooks', label: 'Webhooks' },
  { to: '/$workspaceSlug/settings/apps', label: 'Installed apps' },
] as const;

/** The workspace's pages, in the palette and by `g then …` sequences. */
export function useWorkspaceCommands(): void {
  const workspace = useWorkspace();
  const navigate = useNavigate();
  const params = { workspaceSlug: workspace.slug };
  const commands: Command[] = [
    {
      id: 'go.overview',
      label: 'Overview',
      group: 'Go to',
      shortcut: 'g then o',
      keywords: ['home', 'dashboard'],
      run: () => void navigate({ to: '/$workspaceSlug', params }),
    },
    {
      id: 'go.activity',
      label: 'Activity',
      group: 'Go to',
      shortcut: 'g then a',
      keywords: ['events', 'log', 'history'],
      run: () => void navigate({ to: '/$workspaceSlug/activity', params }),
    },
    {
      id: 'go.settings',
      label: 'Settings',
      group: 'Go to',
      shortcut: 'g then s',
      keywords: ['general', 'name', 'workspace settings'],
      run: () => void navigate({ to: '/$workspaceSlug/settings', params }),
    },
    ...SETTINGS_PAGES.map((page) => ({
      id: `go.settings.${page.label}`,
      label: `Settings › ${page.label}`,
      group: 'Go to',
      keywords: ['settings'],
      run: () => void navigate({ to: page.to, params }),
    })),
  ];
  useCommands(commands);
}
