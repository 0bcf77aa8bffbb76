import type { WorkspaceOverview } from '../../../api/workspace-settings.js';
import { Section, Tile } from './Section.js';

type Counted = keyof WorkspaceOverview['catalog'];

const LABELS: ReadonlyArray<readonly [Counted, string]> = [
  ['items', 'Cards'],
  ['archivedItems', 'Archived cards'],
  ['collections', 'Lists'],
  ['views', 'Views'],
  ['fields', 'Fields'],
  ['statuses', 'Statuses'],
  ['members', 'Members'],
  ['files', 'Files'],
];

/** How much the workspace holds. */
export function CatalogSize({ catalog }: { catalog: WorkspaceOverview['catalog'] }) {
  return (
    <Section title="Catalog">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {LABELS.map(([key, label]) => (
          <Tile key={key} label={label} value={catalog[key]} />
        ))}
      </dl>
    </Section>
  );
}
