import { KeyboardCode, type KeyboardCoordinateGetter } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { columnKeyOfDropId } from './dropPlace.js';

/** Inside a column, clear of its edges, so the lifted card lies within it. */
const INSET = 8;

/**
 * The arrows on a lifted card: up and down move it among its column's cards
 * (dnd-kit's sortable steps); left and right put it at the top of the
 * column beside, empty or not, so a keyboard reaches every column in turn.
 */
export const boardKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  if (event.code !== KeyboardCode.Left && event.code !== KeyboardCode.Right) {
    return sortableKeyboardCoordinates(event, args);
  }
  const { collisionRect, droppableRects, droppableContainers } = args.context;
  if (collisionRect === null) return undefined;
  const columns = droppableContainers
    .getEnabled()
    .filter((container) => columnKeyOfDropId(String(container.id)) !== undefined)
    .map((container) => droppableRects.get(container.id))
    .filter((rect) => rect !== undefined)
    .sort((a, b) => a.left - b.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  const next =
    event.code === KeyboardCode.Right
      ? columns.find((rect) => rect.left > centre)
      : [...columns].reverse().find((rect) => rect.left + rect.width < centre);
  if (next === undefined) return undefined;
  event.preventDefault();
  return { x: next.left + INSET, y: next.top + INSET };
};
