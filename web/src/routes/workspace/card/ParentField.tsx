import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { type ItemDetail, itemQuery, subItemsQuery } from '../../../api/items.js';
import { SMALL_BUTTON } from './fields/types.js';
import { ParentPicker } from './ParentPicker.js';
import { useWorkspaceLists } from './useWorkspaceLists.js';

/**
 * The card's parent: a link to open it, a button to remove it, and a picker
 * to set or change it by searching titles and keys. A refusal of the server
 * shows below, in its words; the card keeps the parent it had.
 */
export function ParentField({
  workspaceId,
  item,
  disabled,
  openCard,
  onChange,
  error,
}: {
  workspaceId: string;
  item: ItemDetail;
  disabled: boolean;
  openCard: (key: string) => void;
  onChange: (parentId: string | null) => void;
  error: string | undefined;
}) {
  const id = useId();
  const { listIds, nameOf } = useWorkspaceLists(workspaceId, item.collectionId);
  const parent = useQuery({
    ...itemQuery(workspaceId, item.parentId ?? ''),
    enabled: item.parentId !== null,
  });
  // The same query as the sub-items below: what may not become the parent.
  const children = useQuery({
    ...subItemsQuery(workspaceId, listIds, item.id),
    enabled: !disabled,
  });
  const childIds = new Set((children.data ?? []).map((child) => child.id));
  return (
    <div className="grid grid-cols-[minmax(6rem,9rem)_1fr] items-start gap-2 py-1">
      <span className="pt-1.5 text-sm text-zinc-700 dark:text-zinc-300" id={`${id}-name`}>
        Parent
      </span>
      <div className="flex min-w-0 flex-col gap-1">
        {item.parentId === null ? (
          disabled ? (
            <span className="pt-1.5 text-sm text-zinc-600 dark:text-zinc-400">None</span>
          ) : null
        ) : (
          <div className="flex items-center gap-2 pt-1 text-sm">
            <button
              type="button"
              className="truncate text-left text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-300"
              onClick={() => parent.data && openCard(parent.data.key)}
            >
              {parent.data ? `${parent.data.key} ${parent.data.title}` : 'Loading…'}
            </button>
            {disabled ? null : (
              <button type="button" className={SMALL_BUTTON} onClick={() => onChange(null)}>
                Remove parent
              </button>
            )}
          </div>
        )}
        {disabled ? null : (
          <ParentPicker
            workspaceId={workspaceId}
            item={item}
            listIds={listIds}
            childIds={childIds}
            nameOf={nameOf}
            onPick={onChange}
          />
        )}
        {error === undefined ? null : (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {error}
          </p>
        )}
      </div>
    </div>
  );
}
