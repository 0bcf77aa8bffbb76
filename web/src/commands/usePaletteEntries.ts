import { useQueries, useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { collectionsQuery, viewsQuery } from '../api/lists.js';
import { workspacesQuery } from '../api/workspaces.js';
import { type Command, useRegisteredCommands } from './registry.js';

/** An entry of the palette: a registered command, or one of its own (a list, a view, ...). */
export type PaletteEntry = Command;

/** The order of the palette's headings; registered groups not named here follow. */
export const GROUP_ORDER = ['Lists', 'Views', 'Go to', 'Workspaces'];

/**
 * Everything the palette offers: the current workspace's lists and each
 * list's saved views (read while the palette is open), every other
 * workspace, the account's actions, and the commands the mounted screens
 * registered (useCommands).
 */
export function usePaletteEntries(open: boolean, signOut: () => void): PaletteEntry[] {
  const navigate = useNavigate();
  const { workspaceSlug } = useParams({ strict: false });
  const workspaces = useQuery({ ...workspacesQuery, enabled: open });
  const workspace = workspaces.data?.find((candidate) => candidate.slug === workspaceSlug);
  const workspaceId = workspace?.id ?? '';
  const collections = useQuery({
    ...collectionsQuery(workspaceId),
    enabled: open && workspace !== undefined,
  });
  const views = useQueries({
    queries: (collections.data ?? []).map((collection) => ({
      ...viewsQuery(workspaceId, collection.id),
      enabled: open,
    })),
  });
  const registered = useRegisteredCommands();

  const entries: PaletteEntry[] = [];
  if (workspace !== undefined) {
    const slug = workspace.slug;
    (collections.data ?? []).forEach((collection, index) => {
      entries.push({
        id: `list:${collection.id}`,
        label: collection.name,
        group: 'Lists',
        keywords: ['list', collection.keyPrefix],
        run: () =>
          void navigate({
            to: '/$workspaceSlug/lists/$listId',
            params: { workspaceSlug: slug, listId: collection.id },
          }),
      });
      for (const view of views[index]?.data ?? []) {
        entries.push({
          id: `view:${view.id}`,
          label: `${collection.name} › ${view.name}`,
          group: 'Views',
          keywords: ['view', view.name, collection.name],
          run: () =>
            void navigate({
              to: '/$workspaceSlug/lists/$listId',
              params: { workspaceSlug: slug, listId: collection.id },
              search: { view: view.id },
            }),
        });
      }
    });
  }
  entries.push(...registered);
  for (const other of workspaces.data ?? []) {
    if (other.slug === workspaceSlug) continue;
    entries.push({
      id: `workspace:${other.id}`,
      label: `Switch to ${other.name}`,
      group: 'Workspaces',
      keywords: ['workspace', other.slug],
      run: () => void navigate({ to: '/$workspaceSlug', params: { workspaceSlug: other.slug } }),
    });
  }
  entries.push(
    {
      id: 'account.workspaces',
      label: 'All workspaces',
      group: 'Workspaces',
      keywords: ['home', 'create workspace'],
      run: () => void navigate({ to: '/' }),
    },
    {
      id: 'account.sign-out',
      label: 'Sign out',
      group: 'Account',
      keywords: ['log out'],
      run: signOut,
    },
  );
  return entries;
}

/** The entries under their headings, in GROUP_ORDER then first appearance. */
export function groupEntries(entries: PaletteEntry[]): Array<[string, PaletteEntry[]]> {
  const groups = new Map<string, PaletteEntry[]>();
  for (const name of GROUP_ORDER) groups.set(name, []);
  for (const entry of entries) {
    const list = groups.get(entry.group) ?? [];
    list.push(entry);
    groups.set(entry.group, list);
  }
  return [...groups].filter(([, list]) => list.length > 0);
}
