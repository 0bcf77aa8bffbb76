import { useQuery } from '@tanstack/react-query';
import { overviewQuery } from '../../../api/workspace-settings.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useWorkspace } from '../context.js';
import { ActivityChart } from './ActivityChart.js';
import { CatalogSize } from './CatalogSize.js';
import { CategoryCards } from './CategoryCards.js';
import { ListCards } from './ListCards.js';

/** The workspace at a glance: cards per status category and per list, 14 days of activity, the catalog. */
export function Overview() {
  const workspace = useWorkspace();
  const overview = useQuery(overviewQuery(workspace.id));
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-8">
      <header>
        <h1 className="mb-1 text-2xl font-semibold">{workspace.name}</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {workspace.slug} · your role: {workspace.role}
        </p>
      </header>
      {overview.isPending ? <p>Loading the overview…</p> : null}
      {overview.isError ? (
        <FormAlert message={`The overview could not be read: ${overview.error.message}`} />
      ) : null}
      {overview.data ? (
        <>
          <CategoryCards counts={overview.data.cardsByCategory} />
          <ListCards lists={overview.data.cardsByCollection} />
          <ActivityChart days={overview.data.activity} />
          <CatalogSize catalog={overview.data.catalog} />
        </>
      ) : null}
    </div>
  );
}
