import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useMemo } from 'react';
import { eventsQuery } from '../../../api/events.js';
import { fieldsQuery } from '../../../api/fields.js';
import { collectionsQuery } from '../../../api/lists.js';
import { useCommands } from '../../../commands/registry.js';
import { Button } from '../../../components/Button.js';
import { useWorkspace } from '../context.js';
import { ActivityFilters } from './ActivityFilters.js';
import { EventRow } from './EventRow.js';
import { useCardNames } from './useCardNames.js';

/** The workspace's event log, newest first, filtered by type, cause and batch (in the address). */
export function Activity() {
  const workspace = useWorkspace();
  const search = useSearch({ from: '/signed-in/$workspaceSlug/activity' });
  const navigate = useNavigate({ from: '/$workspaceSlug/activity' });
  const filters = {
    ...(search.type === undefined ? {} : { type: search.type }),
    ...(search.cause === undefined ? {} : { cause: search.cause }),
    ...(search.batch === undefined ? {} : { batchId: search.batch }),
  };
  const log = useInfiniteQuery(eventsQuery(workspace.id, filters));
  const fields = useQuery(fieldsQuery(workspace.id));
  const collections = useQuery(collectionsQuery(workspace.id));
  const events = useMemo(() => log.data?.pages.flatMap((page) => page.events) ?? [], [log.data]);
  const cards = useCardNames(workspace.id, events);
  const names = useMemo(
    () => ({
      fieldByKey: new Map((fields.data ?? []).map((field) => [field.key, field.name])),
      collectionById: new Map((collections.data ?? []).map((list) => [list.id, list.name])),
      cardById: new Map([...cards].map(([id, card]) => [id, card.title])),
    }),
    [fields.data, collections.data, cards],
  );
  useCommands([
    {
      id: 'activity.clear-filters',
      label: 'Activity: clear the filters',
      group: 'Activity',
      run: () => void navigate({ search: {} }),
    },
  ]);

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="text-2xl font-semibold">Activity</h1>
      <ActivityFilters search={search} onChange={(next) => void navigate({ search: next })} />
      {log.isPending ? <p>Loading…</p> : null}
      {log.isError ? <p role="alert">{log.error.message}</p> : null}
      {log.isSuccess && events.length === 0 ? (
        <p className="text-zinc-700 dark:text-zinc-300">
          {Object.keys(search).length > 0
            ? 'No event matches these filters.'
            : 'Nothing happened yet.'}
        </p>
      ) : null}
      <ol
        aria-label="Events"
        className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-700 dark:bg-zinc-900"
      >
        {events.map((event) => (
          <EventRow
            key={event.id}
            event={event}
            names={names}
            cardKey={cards.get(event.resource.id)?.key}
            batchLink={
              event.batchId !== null && search.batch !== event.batchId ? (
                <Link
                  from="/$workspaceSlug/activity"
                  search={{ batch: event.batchId }}
                  className="text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
                >
                  Batch
                </Link>
              ) : null
            }
          />
        ))}
      </ol>
      {log.hasNextPage ? (
        <Button
          variant="quiet"
          className="self-center"
          disabled={log.isFetchingNextPage}
          onClick={() => void log.fetchNextPage()}
        >
          {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </Button>
      ) : null}
    </div>
  );
}
