import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Link } from '@tanstack/react-router';
import { Menu } from '../../../components/Menu.js';
import type { SidebarEntry } from './order.js';

const LINK =
  'block min-w-0 flex-1 truncate rounded-md px-2 py-1 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 data-[status=active]:bg-zinc-200 data-[status=active]:font-medium dark:text-zinc-300 dark:hover:bg-zinc-800 dark:data-[status=active]:bg-zinc-800';
const HANDLE =
  'cursor-grab touch-none rounded px-1 text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800';

interface SortableEntryProps {
  entry: SidebarEntry;
  workspaceSlug: string;
  /** Admins rearrange, rename and delete; others only follow the links. */
  canEdit: boolean;
  onRename: () => void;
  onDelete: () => void;
}

/** A list (a link with its drag handle and menu) or a group's header, in the sortable sidebar. */
export function SortableEntry({
  entry,
  workspaceSlug,
  canEdit,
  onRename,
  onDelete,
}: SortableEntryProps) {
  const isList = entry.kind === 'list';
  // A header is a place to drop a list (into or out of its group), never dragged itself.
  const sortable = useSortable({
    id: entry.id,
    disabled: { draggable: !isList || !canEdit, droppable: false },
  });
  const name = isList ? entry.collection.name : entry.group.name;
  const menu = canEdit ? (
    <Menu
      label={`${isList ? 'List' : 'Group'} ${name} actions`}
      trigger="⋯"
      actions={[
        { label: 'Rename', onSelect: onRename },
        { label: 'Delete', onSelect: onDelete, danger: true },
      ]}
    />
  ) : null;
  return (
    <li
      ref={sortable.setNodeRef}
      style={{
        transform: CSS.Translate.toString(sortable.transform),
        transition: sortable.transition,
      }}
      className={`flex items-center gap-1 ${sortable.isDragging ? 'relative z-10 rounded-md bg-white opacity-80 shadow dark:bg-zinc-800' : ''} ${isList ? '' : 'mt-3'}`}
    >
      {isList ? (
        <>
          {canEdit ? (
            <button
              type="button"
              aria-label={`Move ${name}`}
              className={HANDLE}
              {...sortable.attributes}
              {...sortable.listeners}
            >
              ⠿
            </button>
          ) : null}
          <Link
            to="/$workspaceSlug/lists/$listId"
            params={{ workspaceSlug, listId: entry.collection.id }}
            className={LINK}
          >
            {name}
          </Link>
        </>
      ) : (
        <h3 className="min-w-0 flex-1 truncate px-2 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
          {name}
        </h3>
      )}
      {menu}
    </li>
  );
}
