import { describe, expect, it } from 'vitest';
import type { BoardData, Item } from '../../../../api/board.js';
import { dropPlace } from './dropPlace.js';
import {
  afterItemIdAt,
  appendPage,
  insertCard,
  moveCard,
  shiftCounts,
  undoMove,
  undoOf,
} from './reconcile.js';

const LIST = 'list-1';

function card(id: string, statusId = 'todo', collectionId = LIST): Item {
  return {
    id,
    key: `ENG-${id}`,
    number: 1,
    collectionId,
    collectionIds: [],
    title: id,
    statusId,
    parentId: null,
    properties: {},
    icon: null,
    sortKey: 'a0',
    archived: false,
    archivedAt: null,
    createdBy: null,
    externalSource: null,
    externalId: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

function board(): BoardData {
  return {
    columns: [
      {
        key: 'todo',
        value: 'todo',
        count: 3,
        items: [card('a'), card('b'), card('c')],
        nextCursor: null,
      },
      { key: 'doing', value: 'doing', count: 0, items: [], nextCursor: null },
      { key: 'done', value: 'done', count: 9, items: [card('d', 'done')], nextCursor: 'next' },
    ],
  };
}

const ids = (data: BoardData, key: string) =>
  data.columns.find((column) => column.key === key)?.items.map((item) => item.id);
const count = (data: BoardData, key: string) =>
  data.columns.find((column) => column.key === key)?.count;

describe('moving a card in the cached board', () => {
  it('moves it to another column with its change, and the counts follow', () => {
    const moved = moveCard(board(), 'b', { key: 'doing', index: 0 }, card('b', 'doing'));
    expect(ids(moved, 'todo')).toEqual(['a', 'c']);
    expect(ids(moved, 'doing')).toEqual(['b']);
    expect(moved.columns[1]?.items[0]?.statusId).toBe('doing');
    expect([count(moved, 'todo'), count(moved, 'doing')]).toEqual([2, 1]);
  });

  it('reorders within a column as arrayMove does, the count unchanged', () => {
    expect(ids(moveCard(board(), 'a', { key: 'todo', index: 2 }), 'todo')).toEqual(['b', 'c', 'a']);
    expect(ids(moveCard(board(), 'c', { key: 'todo', index: 0 }), 'todo')).toEqual(['c', 'a', 'b']);
    expect(count(moveCard(board(), 'c', { key: 'todo', index: 0 }), 'todo')).toBe(3);
  });

  it('clamps the index, and leaves the board alone for an unknown card or column', () => {
    expect(ids(moveCard(board(), 'a', { key: 'done', index: 99 }), 'done')).toEqual(['d', 'a']);
    const before = board();
    expect(moveCard(before, 'zzz', { key: 'done', index: 0 })).toBe(before);
    expect(moveCard(before, 'a', { key: 'gone', index: 0 })).toBe(before);
  });

  it('puts a refused move back, exactly where and as it was, keeping other changes', () => {
    const start = board();
    const undo = undoOf(start, 'b');
    expect(undo?.place).toEqual({ key: 'todo', index: 1 });
    const moved = moveCard(start, 'b', { key: 'done', index: 0 }, card('b', 'done'));
    // Meanwhile a page of the Done column arrived.
    const grown = appendPage(moved, 'done', {
      items: [card('e', 'done')],
      nextCursor: null,
      count: 11,
    });
    if (undo === undefined) throw new Error('no undo');
    const back = undoMove(grown, undo);
    expect(ids(back, 'todo')).toEqual(['a', 'b', 'c']);
    expect(back.columns[0]?.items[1]?.statusId).toBe('todo');
    expect(ids(back, 'done')).toEqual(['d', 'e']);
    expect([count(back, 'todo'), count(back, 'done')]).toEqual([3, 10]);
  });
});

describe('the place written for a drop', () => {
  it('is after the card above, or null at the top', () => {
    const items = [card('a'), card('b'), card('c')];
    expect(afterItemIdAt(items, 'c', 0, LIST)).toBeNull();
    expect(afterItemIdAt(items, 'c', 1, LIST)).toBe('a');
    // Counted without the dragged card: a to the end is after c.
    expect(afterItemIdAt(items, 'a', 2, LIST)).toBe('c');
    expect(afterItemIdAt([], 'x', 0, LIST)).toBeNull();
  });

  it('skips cards whose home is another list (manual order is per list)', () => {
    const items = [card('a'), card('b', 'todo', 'other-list'), card('c')];
    expect(afterItemIdAt(items, 'x', 2, LIST)).toBe('a');
  });
});

describe('where a dragged card lands', () => {
  const rect = { top: 100, height: 60 };
  it('at the end of a column dropped on its free space', () => {
    expect(dropPlace(board(), 'a', 'column:doing', 0, rect)).toEqual({ key: 'doing', index: 0 });
    expect(dropPlace(board(), 'a', 'column:todo', 0, rect)).toEqual({ key: 'todo', index: 2 });
  });
  it('before or after a card of another column by the middle of it', () => {
    expect(dropPlace(board(), 'a', 'd', 110, rect)).toEqual({ key: 'done', index: 0 });
    expect(dropPlace(board(), 'a', 'd', 140, rect)).toEqual({ key: 'done', index: 1 });
  });
  it('at the place of the card it is over in its own column', () => {
    expect(dropPlace(board(), 'a', 'c', 140, rect)).toEqual({ key: 'todo', index: 2 });
    expect(dropPlace(board(), 'a', 'unknown', 140, rect)).toBeUndefined();
  });
});

describe('pages, new cards and counts', () => {
  it('appends a further page without showing a card twice', () => {
    const next = appendPage(board(), 'done', {
      items: [card('d', 'done'), card('e', 'done')],
      nextCursor: null,
      count: 9,
    });
    expect(ids(next, 'done')).toEqual(['d', 'e']);
    expect(next.columns[2]?.nextCursor).toBeNull();
  });

  it('inserts a new card at the top, or at the bottom once the column is all loaded', () => {
    expect(ids(insertCard(board(), 'todo', card('n'), 'top'), 'todo')).toEqual([
      'n',
      'a',
      'b',
      'c',
    ]);
    expect(ids(insertCard(board(), 'todo', card('n'), 'bottom'), 'todo')).toEqual([
      'a',
      'b',
      'c',
      'n',
    ]);
    const partial = insertCard(board(), 'done', card('n', 'done'), 'bottom');
    expect([ids(partial, 'done'), count(partial, 'done')]).toEqual([['d'], 10]);
  });

  it('shifts the group counts, adding the empty group when it gets its first card', () => {
    const counts = [
      { value: 'x', count: 2 },
      { value: 'y', count: 0 },
    ];
    expect(shiftCounts(counts, 'x', 'y')).toEqual([
      { value: 'x', count: 1 },
      { value: 'y', count: 1 },
    ]);
    expect(shiftCounts(counts, 'x', null)).toEqual([
      { value: 'x', count: 1 },
      { value: 'y', count: 0 },
      { value: null, count: 1 },
    ]);
    expect(shiftCounts(counts, 'x', 'x')).toEqual(counts);
  });
});
