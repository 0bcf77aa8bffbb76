import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { collectionsQuery, groupsQuery, useReorderCollections } from '../../../api/lists.js';
import { roleAtLeast, useWorkspace } from '../context.js';
import { dragAnnouncements } from './announcements.js';
import { CreateListDialog } from './CreateListDialog.js';
import { type EntryAction, EntryDialogs } from './EntryDialogs.js';
import { NewGroupButton } from './NewGroupButton.js';
import { moveList, reorderBody, sidebarEntries } from './order.js';
import { SortableEntry } from './SortableEntry.js';

const ADD =
  'rounded px-1.5 text-sm text-zinc-600 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800';

/**
 * The workspace's groups and lists in order. Admins drag a list (by mouse, or
 * by keyboard: Space on its handle, arrows, Space) to reorder it or move it
 * between groups: one `PUT .../collections/order`, shown at once and undone
 * if refused.
 */
export function ListsNav() {
  const workspace = useWorkspace();
  const canEdit = roleAtLeast(workspace.role, 'admin');
  const collections = useQuery(collectionsQuery(workspace.id));
  const groups = useQuery(groupsQuery(workspace.id));
  const reorder = useReorderCollections(workspace.id);
  const [creating, setCreating] = useState(false);
  const [action, setAction] = useState<EntryAction | undefined>();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const entries = sidebarEntries(collections.data ?? [], groups.data ?? []);
  const announcements = dragAnnouncements(entries);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over === null) return;
    const moved = moveList(entries, String(active.id), String(over.id));
    if (moved !== undefined) reorder.mutate(reorderBody(moved));
  };
  return (
    <nav aria-label="Lists" className="flex flex-col gap-1">
      <div className="flex items-center justify-between px-2">
        <h2 className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
          Lists
        </h2>
        {canEdit ? (
          <div className="flex gap-1">
            <NewGroupButton className={ADD} />
            <button type="button" className={ADD} onClick={() => setCreating(true)}>
              + List
            </button>
          </div>
        ) : null}
      </div>
      {reorder.isError ? (
        <p role="alert" className="px-2 text-sm text-red-700 dark:text-red-300">
          The lists were not moved: {refusalOf(reorder.error).message}
        </p>
      ) : null}
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={onDragEnd}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To move a list, press Space or Enter on its handle; the arrow keys move it, Space or Enter drops it, Escape cancels.',
          },
        }}
      >
        <SortableContext
          items={entries.map((entry) => entry.id)}
          strategy={verticalListSortingStrategy}
        >
          <ul className="flex flex-col gap-0.5">
            {entries.map((entry) => (
              <SortableEntry
                key={entry.id}
                entry={entry}
                workspaceSlug={workspace.slug}
                canEdit={canEdit}
                onRename={() => setAction({ kind: 'rename', entry })}
                onDelete={() => setAction({ kind: 'delete', entry })}
              />
            ))}
          </ul>
        </SortableContext>
      </DndContext>
      {collections.isSuccess && entries.length === 0 ? (
        <p className="px-2 text-sm text-zinc-600 dark:text-zinc-400">No lists yet.</p>
      ) : null}
      <CreateListDialog open={creating} onOpenChange={setCreating} />
      <EntryDialogs action={action} onClose={() => setAction(undefined)} />
    </nav>
  );
}
