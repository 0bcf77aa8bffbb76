import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { BoardPage, Field } from '../../../../api/board.js';
import { BoardCard } from './BoardCard.js';
import { columnDropId } from './dropPlace.js';

interface ColumnCardsProps {
  page: BoardPage;
  name: string;
  fields: readonly Field[];
  canDrag: boolean;
  highlighted: boolean;
  loadingMore: boolean;
  onLoadMore: (columnKey: string) => void;
  openCard: (cardKey: string) => void;
}

/** Near this many cards from the end, the column asks for its next page. */
const LOAD_AHEAD = 5;

/**
 * A column's cards, virtualized (only those in sight are in the page, so a
 * column of thousands scrolls smoothly), asking for more near its end.
 */
export function ColumnCards(props: ColumnCardsProps) {
  const { page, name, fields, canDrag, highlighted, loadingMore, onLoadMore, openCard } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const { setNodeRef } = useDroppable({ id: columnDropId(page.key) });
  const items = page.items;
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 6,
    gap: 8,
    getItemKey: (index) => items[index]?.id ?? index,
  });
  const shown = virtualizer.getVirtualItems();
  const lastShown = shown.at(-1)?.index ?? -1;
  const wantsMore = page.nextCursor !== null && lastShown >= items.length - LOAD_AHEAD;
  useEffect(() => {
    if (wantsMore && !loadingMore) onLoadMore(page.key);
  }, [wantsMore, loadingMore, onLoadMore, page.key]);
  return (
    <div
      ref={(node) => {
        scroller.current = node;
        setNodeRef(node);
      }}
      // Where a dragged card would land (tests wait for it between keys).
      data-drop-target={highlighted ? '' : undefined}
      className={`max-h-[calc(100vh-15rem)] min-h-24 overflow-x-hidden overflow-y-auto rounded-md p-1 ${highlighted ? 'bg-blue-50 ring-2 ring-blue-600/40 dark:bg-blue-950/40' : ''}`}
    >
      <SortableContext
        id={columnDropId(page.key)}
        items={items.map((item) => item.id)}
        strategy={verticalListSortingStrategy}
      >
        <ul
          aria-label={`Cards in ${name}`}
          className="relative"
          style={{ height: virtualizer.getTotalSize() }}
        >
          {shown.map((row) => {
            const item = items[row.index];
            if (item === undefined) return null;
            return (
              <li
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className="absolute inset-x-0 top-0"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <BoardCard
                  item={item}
                  fields={fields}
                  columnKey={page.key}
                  index={row.index}
                  canDrag={canDrag}
                  openCard={openCard}
                />
              </li>
            );
          })}
        </ul>
      </SortableContext>
      {items.length === 0 ? (
        <p className="px-2 py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">No cards</p>
      ) : null}
      {loadingMore ? (
        <p className="px-2 py-2 text-center text-sm text-zinc-600 dark:text-zinc-400">
          Loading more…
        </p>
      ) : null}
    </div>
  );
}
