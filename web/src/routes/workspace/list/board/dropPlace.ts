import type { BoardData } from '../../../../api/board.js';
import { findCard, type Place } from './reconcile.js';

const COLUMN_PREFIX = 'column:';

/** The droppable id of a column (cards' ids are the items' ids). */
export function columnDropId(key: string): string {
  return `${COLUMN_PREFIX}${key}`;
}

export function columnKeyOfDropId(id: string): string | undefined {
  return id.startsWith(COLUMN_PREFIX) ? id.slice(COLUMN_PREFIX.length) : undefined;
}

/**
 * Where a dragged card lands, from what it is over: a column (its end), or
 * a card (its place; in another column, after it when the dragged card's
 * top is past the middle of it). The index is counted without the dragged card.
 */
export function dropPlace(
  board: BoardData,
  activeId: string,
  overId: string,
  activeTop: number | undefined,
  over: { top: number; height: number },
): Place | undefined {
  const columnKey = columnKeyOfDropId(overId);
  if (columnKey !== undefined) {
    const column = board.columns.find((candidate) => candidate.key === columnKey);
    if (column === undefined) return undefined;
    const others = column.items.filter((item) => item.id !== activeId);
    return { key: columnKey, index: others.length };
  }
  const target = findCard(board, overId);
  const from = findCard(board, activeId);
  if (target === undefined || from === undefined) return undefined;
  if (target.key === from.key) return { key: target.key, index: target.index };
  const below = activeTop !== undefined && activeTop > over.top + over.height / 2;
  return { key: target.key, index: target.index + (below ? 1 : 0) };
}
