import { CATEGORIES } from '../../../api/statuses.js';
import type { WorkspaceOverview } from '../../../api/workspace-settings.js';
import { Section, Tile } from './Section.js';

export const CATEGORY_LABELS = {
  backlog: 'Backlog',
  unstarted: 'Unstarted',
  started: 'Started',
  completed: 'Completed',
  canceled: 'Canceled',
} as const;

/** Active cards per status category. */
export function CategoryCards({ counts }: { counts: WorkspaceOverview['cardsByCategory'] }) {
  const total = CATEGORIES.reduce((sum, category) => sum + counts[category], 0);
  return (
    <Section title="Cards by status">
      {total === 0 ? (
        <p className="mb-3 text-sm text-zinc-700 dark:text-zinc-300">
          No cards yet: they are counted here by the category of their status as they are added.
        </p>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {CATEGORIES.map((category) => (
          <Tile key={category} label={CATEGORY_LABELS[category]} value={counts[category]} />
        ))}
      </dl>
    </Section>
  );
}
