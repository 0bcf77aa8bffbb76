import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  MeasuringStrategy,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { useId } from 'react';
import type { Status } from '../../../../api/statuses.js';
import { StatusRow } from './StatusRow.js';

/** One category's statuses, sortable among themselves by pointer or keyboard. */
export function CategoryList({
  title,
  statuses,
  editable,
  onMove,
}: {
  title: string;
  statuses: Status[];
  editable: boolean;
  onMove: (activeId: string, overId: string) => void;
}) {
  const headingId = useId();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: string | number) =>
    statuses.find((status) => status.id === id)?.name ?? 'the status';

  const end = ({ active, over }: DragEndEvent) => {
    if (over !== null) onMove(String(active.id), String(over.id));
  };

  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-zinc-700 dark:text-zinc-300">
        {title}
      </h3>
      {statuses.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No status in this category.</p>
      ) : (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          // Measured before the first arrow key: a key pressed at once still finds its neighbour.
          measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
          onDragEnd={end}
          accessibility={{
            announcements: {
              onDragStart: ({ active }) => `Picked up ${nameOf(active.id)}.`,
              onDragOver: ({ active, over }) =>
                over ? `${nameOf(active.id)} is over ${nameOf(over.id)}.` : undefined,
              onDragEnd: ({ active, over }) =>
                over
                  ? `${nameOf(active.id)} dropped at the place of ${nameOf(over.id)}.`
                  : undefined,
              onDragCancel: ({ active }) => `Moving ${nameOf(active.id)} was cancelled.`,
            },
          }}
        >
          <SortableContext items={statuses} strategy={verticalListSortingStrategy}>
            <ul className="flex flex-col gap-1">
              {statuses.map((status) => (
                <StatusRow key={status.id} status={status} editable={editable} />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
      )}
    </section>
  );
}
