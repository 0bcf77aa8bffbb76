import {
  type Active,
  type Announcements,
  type CollisionDetection,
  closestCenter,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
  KeyboardSensor,
  MeasuringStrategy,
  type Over,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { useState } from 'react';
import type { BoardData, Item } from '../../../../api/board.js';
import { columnKeyOfDropId, dropPlace } from './dropPlace.js';
import { type BoardColumn, changeFor, type Grouping } from './grouping.js';
import { boardKeyboardCoordinates } from './keyboardCoordinates.js';
import { afterItemIdAt, findCard } from './reconcile.js';
import type { Move } from './useMoveCard.js';

interface DragSetup {
  board: BoardData | undefined;
  columns: readonly BoardColumn[];
  grouping: Grouping | undefined;
  sorted: boolean;
  collectionId: string;
  move: (move: Move) => void;
  refuse: (words: string) => void;
}

/**
 * Dragging cards on the board with the mouse or the keyboard (Space lifts,
 * the arrows move, Space drops, Escape cancels): where a card lands, and
 * the write that follows (a change of column, or a new place in its column).
 */
export function useBoardDrag(setup: DragSetup) {
  const { board, columns, grouping, sorted, collectionId } = setup;
  const [active, setActive] = useState<Item | undefined>(undefined);
  const [overKey, setOverKey] = useState<string | undefined>(undefined);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, {
      coordinateGetter: boardKeyboardCoordinates,
      // Enter opens the card; Space lifts and drops.
      keyboardCodes: { start: ['Space'], cancel: ['Escape'], end: ['Space'] },
      // At once: a smooth scroll still running when Space drops would measure the card elsewhere.
      scrollBehavior: 'auto',
    }),
  );
  const nameOf = (key: string | undefined) => columns.find((column) => column.key === key)?.name;
  const cardKey = (id: string | number) =>
    (board && findCard(board, String(id))?.item.key) ?? 'The card';
  const columnOf = (id: string | number): string | undefined =>
    columnKeyOfDropId(String(id)) ?? (board && findCard(board, String(id))?.key);

  // Over a card, that card; over a column's free space, its nearest card, else the column.
  const collisionDetection: CollisionDetection = (args) => {
    const pointer = pointerWithin(args);
    const hits = pointer.length > 0 ? pointer : rectIntersection(args);
    const card = hits.find((hit) => columnKeyOfDropId(String(hit.id)) === undefined);
    if (card !== undefined) return [card];
    const column = hits[0];
    const key = column === undefined ? undefined : columnKeyOfDropId(String(column.id));
    if (column === undefined || key === undefined) return [];
    const ids = new Set(board?.columns.find((page) => page.key === key)?.items.map((i) => i.id));
    const near = closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter((c) => ids.has(String(c.id))),
    });
    return near.length > 0 ? near.slice(0, 1) : [column];
  };

  const onDragStart = ({ active: dragged }: DragStartEvent) => {
    setActive(board === undefined ? undefined : findCard(board, String(dragged.id))?.item);
  };
  const onDragOver = ({ over }: DragOverEvent) => {
    setOverKey(over === null ? undefined : columnOf(over.id));
  };
  const onDragCancel = () => {
    setActive(undefined);
    setOverKey(undefined);
  };
  const onDragEnd = ({ active: dragged, over }: DragEndEvent) => {
    onDragCancel();
    if (board === undefined || over === null || grouping === undefined) return;
    const itemId = String(dragged.id);
    const from = findCard(board, itemId);
    const activeTop = dragged.rect.current.translated?.top;
    const to = dropPlace(board, itemId, String(over.id), activeTop, over.rect);
    if (from === undefined || to === undefined) return;
    if (from.key === to.key && from.index === to.index) return;
    const toColumn = columns.find((column) => column.key === to.key);
    const fromColumn = columns.find((column) => column.key === from.key);
    if (toColumn === undefined || fromColumn === undefined) return;
    const sameColumn = from.key === to.key;
    if (sameColumn && sorted) {
      setup.refuse('This view is sorted, so cards keep the sort’s order within a column.');
      return;
    }
    const change = sameColumn ? undefined : changeFor(grouping, toColumn.value);
    if (!sameColumn && change === undefined) {
      setup.refuse(
        'Cards move between columns only when the board is grouped by status, a select or a checkbox.',
      );
      return;
    }
    const homedHere = from.item.collectionId === collectionId;
    if (sameColumn && !homedHere) {
      setup.refuse(`${from.item.key} is ordered in its own list, not this one.`);
      return;
    }
    const targetItems = board.columns.find((column) => column.key === to.key)?.items ?? [];
    setup.move({
      itemId,
      cardKey: from.item.key,
      to,
      fromValue: fromColumn.value,
      toValue: toColumn.value,
      change,
      afterItemId:
        sorted || !homedHere
          ? undefined
          : afterItemIdAt(targetItems, itemId, to.index, collectionId),
      columnName: toColumn.name,
    });
  };

  // Where the card would land, as a place in its column ("place 2 of 3"): a keyboard user
  // hears it at each arrow; the place counts every card of the column, not only those loaded.
  const placeWords = (dragged: Active, over: Over): string => {
    if (board === undefined) return '';
    const place = dropPlace(
      board,
      String(dragged.id),
      String(over.id),
      dragged.rect.current.translated?.top,
      over.rect,
    );
    const page = place && board.columns.find((column) => column.key === place.key);
    if (place === undefined || page === undefined) return '';
    const total = page.count + (findCard(board, String(dragged.id))?.key === place.key ? 0 : 1);
    return `, place ${place.index + 1} of ${Math.max(total, place.index + 1)}`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active: dragged }) => `Picked up ${cardKey(dragged.id)}.`,
    onDragOver: ({ active: dragged, over }) =>
      over === null
        ? `${cardKey(dragged.id)} is over no column.`
        : `${cardKey(dragged.id)} is over ${nameOf(columnOf(over.id)) ?? 'a column'}${placeWords(dragged, over)}.`,
    onDragEnd: ({ active: dragged, over }) =>
      over === null
        ? `${cardKey(dragged.id)} was put back.`
        : `${cardKey(dragged.id)} was dropped in ${nameOf(columnOf(over.id)) ?? 'a column'}.`,
    onDragCancel: ({ active: dragged }) => `Moving ${cardKey(dragged.id)} was cancelled.`,
  };
  const screenReaderInstructions = {
    draggable:
      'Press Enter to open the card. To move it, press Space, move it with the arrow keys, then press Space to drop it or Escape to cancel.',
  };

  return {
    active,
    overKey,
    dndProps: {
      sensors,
      collisionDetection,
      onDragStart,
      onDragOver,
      onDragEnd,
      onDragCancel,
      // Columns are virtualized and load more while a card is dragged: measure them as they change.
      measuring: { droppable: { strategy: MeasuringStrategy.Always } },
      accessibility: { announcements, screenReaderInstructions },
    },
  };
}
