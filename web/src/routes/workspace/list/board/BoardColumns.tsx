import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import {
  type BoardData,
  type Field,
  fetchColumnPage,
  type GroupCount,
} from '../../../../api/board.js';
import { refusalOf } from '../../../../api/errors.js';
import { BoardColumnSection } from './BoardColumnSection.js';
import { CardComposer } from './CardComposer.js';
import { ColumnCards } from './ColumnCards.js';
import { type BoardColumn, changeFor, type Grouping, groupKey } from './grouping.js';
import { appendPage } from './reconcile.js';

interface Composer {
  key: string;
  where: 'top' | 'bottom';
}

interface BoardColumnsProps {
  workspaceId: string;
  collectionId: string;
  definition: Record<string, unknown>;
  columns: readonly BoardColumn[];
  grouping: Grouping | undefined;
  board: BoardData | undefined;
  counts: readonly GroupCount[] | undefined;
  cacheKeys: { board: readonly unknown[]; counts: readonly unknown[] };
  isCollapsed: (key: string) => boolean;
  onToggle: (key: string) => void;
  overKey: string | undefined;
  fields: readonly Field[];
  canWrite: boolean;
  canDrag: boolean;
  sorted: boolean;
  composer: Composer | undefined;
  setComposer: (composer: Composer | undefined) => void;
  openCard: (cardKey: string) => void;
  onRefusal: (words: string) => void;
}

const ADD_BUTTON =
  'rounded-md px-2 py-1 text-left text-sm text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 dark:focus-visible:outline-blue-400';

/** The board's columns side by side, each with its cards, its composer and its next pages. */
export function BoardColumns(props: BoardColumnsProps) {
  const { workspaceId, collectionId, definition, board, cacheKeys, onRefusal } = props;
  const client = useQueryClient();
  const [loading, setLoading] = useState<ReadonlySet<string>>(new Set());
  const inFlight = useRef(new Set<string>());
  const boardKey = cacheKeys.board;
  const loadMore = useCallback(
    async (key: string) => {
      const column = client.getQueryData<BoardData>(boardKey)?.columns.find((c) => c.key === key);
      if (column?.nextCursor == null || inFlight.current.has(key)) return;
      inFlight.current.add(key);
      setLoading((previous) => new Set(previous).add(key));
      try {
        const page = await fetchColumnPage(workspaceId, collectionId, definition, {
          value: column.value,
          nextCursor: column.nextCursor,
        });
        client.setQueryData<BoardData>(boardKey, (data) =>
          data === undefined ? data : appendPage(data, key, page),
        );
      } catch (error) {
        onRefusal(`More cards could not be loaded: ${refusalOf(error).message}`);
      } finally {
        inFlight.current.delete(key);
        setLoading((previous) => {
          const next = new Set(previous);
          next.delete(key);
          return next;
        });
      }
    },
    [client, boardKey, workspaceId, collectionId, definition, onRefusal],
  );
  const counted = new Map(props.counts?.map((entry) => [groupKey(entry.value), entry.count]));
  const pages = new Map(board?.columns.map((page) => [page.key, page]));
  return (
    <div className="flex items-start gap-3 overflow-x-auto pb-2">
      {props.columns.map((column) => {
        const page = pages.get(column.key);
        const change =
          props.grouping === undefined ? undefined : changeFor(props.grouping, column.value);
        const creatable =
          props.canWrite && (props.grouping?.kind === 'status' || change !== undefined);
        const composing = props.composer?.key === column.key ? props.composer.where : undefined;
        const composer = (where: 'top' | 'bottom') =>
          composing === where ? (
            <CardComposer
              workspaceId={workspaceId}
              collectionId={collectionId}
              columnKey={column.key}
              columnName={column.name}
              where={where}
              change={change}
              placeFirst={!props.sorted}
              keys={cacheKeys}
              onClose={() => props.setComposer(undefined)}
            />
          ) : null;
        return (
          <BoardColumnSection
            key={column.key}
            column={column}
            count={counted.get(column.key) ?? page?.count ?? (props.counts ? 0 : undefined)}
            collapsed={props.isCollapsed(column.key)}
            onToggle={() => props.onToggle(column.key)}
            onAddTop={
              creatable ? () => props.setComposer({ key: column.key, where: 'top' }) : undefined
            }
          >
            {composer('top')}
            {page === undefined ? (
              <p className="px-2 py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
                Loading cards…
              </p>
            ) : (
              <ColumnCards
                page={page}
                name={column.name}
                fields={props.fields}
                canDrag={props.canDrag}
                highlighted={props.overKey === column.key}
                loadingMore={loading.has(column.key)}
                onLoadMore={loadMore}
                openCard={props.openCard}
              />
            )}
            {composer('bottom')}
            {creatable && composing !== 'bottom' ? (
              <button
                type="button"
                className={ADD_BUTTON}
                onClick={() => props.setComposer({ key: column.key, where: 'bottom' })}
              >
                + Add a card<span className="sr-only"> to {column.name}</span>
              </button>
            ) : null}
          </BoardColumnSection>
        );
      })}
    </div>
  );
}
