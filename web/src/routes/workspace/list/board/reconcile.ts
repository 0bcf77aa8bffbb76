import type { BoardData, BoardPage, GroupCount, GroupValue, Item } from '../../../../api/board.js';
import { groupKey } from './grouping.js';

/**
 * The board's cache, changed the way a write will change the server, so the
 * screen moves at once (TanStack Query's optimistic update) and can be put
 * back exactly when the server refuses. Pure: each returns a new board.
 */

/** Where a card is: its column's key and its index there. */
export interface Place {
  key: string;
  index: number;
}

export function findCard(board: BoardData, itemId: string): (Place & { item: Item }) | undefined {
  for (const column of board.columns) {
    const index = column.items.findIndex((item) => item.id === itemId);
    const item = column.items[index];
    if (item !== undefined) return { key: column.key, index, item };
  }
  return undefined;
}

function clamp(index: number, length: number): number {
  return Math.max(0, Math.min(index, length));
}

/**
 * The card moved to `to` (its index counted once the card has left its old
 * place), replaced by `item` (its new status or property); counts follow a
 * change of column. Unchanged when the card or the column is not there.
 */
export function moveCard(board: BoardData, itemId: string, to: Place, item?: Item): BoardData {
  const from = findCard(board, itemId);
  if (from === undefined || !board.columns.some((column) => column.key === to.key)) return board;
  const moved = item ?? from.item;
  const columns = board.columns.map((column): BoardPage => {
    let items = column.items;
    let count = column.count;
    if (column.key === from.key) {
      items = items.filter((candidate) => candidate.id !== itemId);
      if (from.key !== to.key) count -= 1;
    }
    if (column.key === to.key) {
      items = [...items];
      items.splice(clamp(to.index, items.length), 0, moved);
      if (from.key !== to.key) count += 1;
    }
    return items === column.items ? column : { ...column, items, count };
  });
  return { ...board, columns };
}

/** What a move must remember to be undone: the card as it was, and where. */
export interface Undo {
  item: Item;
  place: Place;
}

export function undoOf(board: BoardData, itemId: string): Undo | undefined {
  const found = findCard(board, itemId);
  if (found === undefined) return undefined;
  return { item: found.item, place: { key: found.key, index: found.index } };
}

/** The card put back where and as it was before a refused move (other changes kept). */
export function undoMove(board: BoardData, undo: Undo): BoardData {
  return moveCard(board, undo.item.id, undo.place, undo.item);
}

/**
 * The `afterItemId` that puts a card at `index` of a column (counted without
 * the card): the nearest card above it that lives in the same list (manual
 * order is per home list), or null for the top.
 */
export function afterItemIdAt(
  items: readonly Item[],
  itemId: string,
  index: number,
  collectionId: string,
): string | null {
  const others = items.filter((item) => item.id !== itemId);
  for (let above = Math.min(index, others.length) - 1; above >= 0; above -= 1) {
    const candidate = others[above];
    if (candidate !== undefined && candidate.collectionId === collectionId) return candidate.id;
  }
  return null;
}

/** A further page of one column appended (cards already shown are not shown twice). */
export function appendPage(
  board: BoardData,
  key: string,
  page: { items: Item[]; nextCursor: string | null; count: number },
): BoardData {
  return {
    ...board,
    columns: board.columns.map((column) => {
      if (column.key !== key) return column;
      const shown = new Set(column.items.map((item) => item.id));
      const fresh = page.items.filter((item) => !shown.has(item.id));
      return {
        ...column,
        items: [...column.items, ...fresh],
        nextCursor: page.nextCursor,
        count: page.count,
      };
    }),
  };
}

/** A card created in a column, at its top or its bottom (bottom only when all is loaded). */
export function insertCard(
  board: BoardData,
  key: string,
  item: Item,
  where: 'top' | 'bottom',
): BoardData {
  return {
    ...board,
    columns: board.columns.map((column) => {
      if (column.key !== key || column.items.some((shown) => shown.id === item.id)) return column;
      const atBottom = where === 'bottom';
      // A card created at the bottom of a column not fully loaded arrives with its last page.
      if (atBottom && column.nextCursor !== null) return { ...column, count: column.count + 1 };
      const items = atBottom ? [...column.items, item] : [item, ...column.items];
      return { ...column, items, count: column.count + 1 };
    }),
  };
}

/** Counts per group after a card changed column (the group-counts cache). */
export function shiftCounts(
  counts: readonly GroupCount[],
  from: GroupValue,
  to: GroupValue,
): GroupCount[] {
  const fromKey = groupKey(from);
  const toKey = groupKey(to);
  if (fromKey === toKey) return [...counts];
  const shifted = counts.map((entry) => {
    const key = groupKey(entry.value);
    if (key === fromKey) return { ...entry, count: Math.max(0, entry.count - 1) };
    if (key === toKey) return { ...entry, count: entry.count + 1 };
    return entry;
  });
  // The empty group is left out of the counts while it has no card.
  if (!counts.some((entry) => groupKey(entry.value) === toKey)) {
    shifted.push({ value: to, count: 1 });
  }
  return shifted;
}
