import { Link } from '@tanstack/react-router';
import type { WorkspaceOverview } from '../../../api/workspace-settings.js';
import { useWorkspace } from '../context.js';
import { Section } from './Section.js';

/** Active cards per list, in sidebar order, each list a link. */
export function ListCards({ lists }: { lists: WorkspaceOverview['cardsByCollection'] }) {
  const workspace = useWorkspace();
  return (
    <Section title="Cards by list">
      {lists.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          No lists yet. Lists hold the workspace's cards; the sidebar shows them once created.
        </p>
      ) : (
        <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {lists.map((list) => (
            <li key={list.collectionId}>
              <Link
                to="/$workspaceSlug/lists/$listId"
                params={{ workspaceSlug: workspace.slug, listId: list.collectionId }}
                className="flex items-baseline justify-between gap-3 rounded-lg border border-zinc-200 bg-white px-4 py-3 hover:border-blue-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-900"
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium">{list.name}</span>
                  <span className="text-xs text-zinc-600 dark:text-zinc-400">{list.keyPrefix}</span>
                </span>
                <span className="text-xl font-semibold tabular-nums">
                  {list.cards.toLocaleString('en')}
                  <span className="sr-only"> cards</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
