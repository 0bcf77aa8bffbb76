// biome-ignore-all lint/a11y/useSemanticElements: a virtualized grid positions its rows itself, which <table> layout does not allow; the ARIA grid roles say what the elements are.
// biome-ignore-all lint/a11y/useFocusableInteractive: in a grid the rows take the focus (one at a time, by the arrow keys), not every cell and header.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { itemPagesQuery } from '../../../../api/item-pages.js';
import { fieldsQuery } from '../../../../api/registry.js';
import type { ViewProps } from '../props.js';
import { columnChoices, visibleColumns } from './columns.js';
import { NewCardRow } from './NewCardRow.js';
import { TableRow } from './TableRow.js';
import { useLookups } from './useLookups.js';

const ROW_HEIGHT = 36;
/** Rows left below the visible ones when the next page is asked for. */
const PREFETCH_ROWS = 40;

/**
 * The table of a view: keyset pages of the view's query, loaded as the person
 * scrolls (by cursor), and only the rows in sight rendered, so ten thousand
 * rows scroll as smoothly as ten. Arrow keys move between rows; Enter or a
 * click opens the card.
 */
export function TableView({ workspaceId, collection, definition, display, openCard }: ViewProps) {
  const lookups = useLookups(workspaceId);
  const fields = useQuery(fieldsQuery(workspaceId));
  const pages = useInfiniteQuery(itemPagesQuery(workspaceId, collection.id, definition));
  const items = useMemo(() => pages.data?.pages.flatMap((page) => page.items) ?? [], [pages.data]);
  const columns = useMemo(
    () => visibleColumns(columnChoices(display, collection, fields.data ?? [])),
    [display, collection, fields.data],
  );
  const template = [
    '6rem',
    'minmax(16rem, 2fr)',
    ...columns.map((column) =>
      column.width === undefined ? 'minmax(9rem, 1fr)' : `${column.width}px`,
    ),
  ].join(' ');
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const virtualRows = virtualizer.getVirtualItems();
  const lastShown = virtualRows.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastShown >= items.length - PREFETCH_ROWS) {
      void fetchNextPage();
    }
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastShown, items.length]);

  const [activeIndex, setActiveIndex] = useState(0);
  // The key handler reads the rows through a ref, so it stays the same as pages arrive
  // and the rows in sight are not rendered again.
  const itemsRef = useRef(items);
  itemsRef.current = items;
  const focusRow = useCallback(
    (index: number) => {
      virtualizer.scrollToIndex(index, { align: 'auto' });
      setActiveIndex(index);
      // The row exists once the virtualizer rendered it in sight.
      requestAnimationFrame(() =>
        scroller.current?.querySelector<HTMLElement>(`[data-index="${index}"]`)?.focus(),
      );
    },
    [virtualizer],
  );
  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLDivElement>, index: number) => {
      const moves: Record<string, number> = {
        ArrowDown: 1,
        ArrowUp: -1,
        PageDown: 10,
        PageUp: -10,
      };
      const by = moves[event.key];
      if (by !== undefined) {
        event.preventDefault();
        focusRow(Math.max(0, Math.min(itemsRef.current.length - 1, index + by)));
      } else if (event.key === 'Home' || event.key === 'End') {
        event.preventDefault();
        focusRow(event.key === 'Home' ? 0 : itemsRef.current.length - 1);
      } else if (event.key === 'Enter') {
        event.preventDefault();
        const item = itemsRef.current[index];
        if (item !== undefined) openCard(item.key);
      }
    },
    [focusRow, openCard],
  );

  return (
    <div className="flex flex-col gap-2">
      <NewCardRow workspaceId={workspaceId} collectionId={collection.id} />
      {pages.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          The cards could not be loaded: {refusalOf(pages.error).message}
        </p>
      ) : null}
      <div
        ref={scroller}
        role="grid"
        aria-label="Cards"
        aria-rowcount={hasNextPage ? -1 : items.length + 1}
        aria-busy={pages.isFetching}
        className="relative h-[calc(100vh-17rem)] min-h-80 overflow-auto rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
      >
        <div role="rowgroup" className="sticky top-0 z-10 min-w-max">
          <div
            role="row"
            aria-rowindex={1}
            className="grid border-b border-zinc-200 bg-zinc-50 text-xs font-semibold text-zinc-600 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
            style={{ gridTemplateColumns: template }}
          >
            {[{ id: 'key', label: 'Key' }, { id: 'title', label: 'Title' }, ...columns].map(
              (column) => (
                <div role="columnheader" key={column.id} className="truncate px-2 py-2">
                  {column.label}
                </div>
              ),
            )}
          </div>
        </div>
        <div
          role="rowgroup"
          className="relative min-w-max"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {lookups === undefined
            ? null
            : virtualRows.map((virtual) => {
                const item = items[virtual.index];
                if (item === undefined) return null;
                return (
                  <TableRow
                    key={item.id}
                    item={item}
                    virtual={virtual}
                    columns={columns}
                    template={template}
                    lookups={lookups}
                    active={virtual.index === Math.min(activeIndex, items.length - 1)}
                    onOpen={openCard}
                    onKeyDown={onKeyDown}
                    onFocus={setActiveIndex}
                  />
                );
              })}
        </div>
      </div>
      {pages.isSuccess && items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No cards match this view.</p>
      ) : null}
      <p aria-live="polite" className="text-xs text-zinc-600 dark:text-zinc-400">
        {pages.isPending
          ? 'Loading cards…'
          : `${items.length.toLocaleString()} cards${hasNextPage ? ' loaded; more as you scroll' : ''}${isFetchingNextPage ? ' (loading more…)' : ''}`}
      </p>
    </div>
  );
}
