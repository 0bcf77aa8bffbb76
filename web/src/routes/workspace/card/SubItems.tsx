import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { createItem, type ItemDetail, subItemsQuery } from '../../../api/items.js';
import { keys } from '../../../api/keys.js';
import { INPUT, SMALL_BUTTON } from './fields/types.js';
import { useWorkspaceLists } from './useWorkspaceLists.js';

/**
 * The card's sub-items in every list, those of its home list first: each
 * opens, and names its list when that is another one. A new one is created
 * under it in the card's home list.
 */
export function SubItems({
  workspaceId,
  item,
  disabled,
  openCard,
}: {
  workspaceId: string;
  item: ItemDetail;
  disabled: boolean;
  openCard: (key: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const { listIds, nameOf } = useWorkspaceLists(workspaceId, item.collectionId);
  const children = useQuery(subItemsQuery(workspaceId, listIds, item.id));
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: (newTitle: string) =>
      createItem(workspaceId, item.collectionId, { title: newTitle, parentId: item.id }),
    onSuccess: () => setTitle(''),
    onSettled: () => client.invalidateQueries({ queryKey: keys.inWorkspace(workspaceId, 'items') }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() !== '') create.mutate(title.trim());
  };
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-1">
      <h2 id={`${id}-heading`} className="text-sm font-semibold">
        Sub-items
      </h2>
      {children.isError ? (
        <p className="text-xs text-red-700 dark:text-red-300">
          {refusalOf(children.error).message}
        </p>
      ) : null}
      <ul className="flex flex-col">
        {(children.data ?? []).map((child) => (
          <li key={child.id}>
            <button
              type="button"
              className="w-full truncate rounded px-1 py-1 text-left text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
              onClick={() => openCard(child.key)}
            >
              <span className="mr-1 text-zinc-600 dark:text-zinc-400">{child.key}</span>{' '}
              {child.title}{' '}
              {child.collectionId === item.collectionId ? null : (
                <span className="ml-1 text-xs text-zinc-600 dark:text-zinc-400">
                  in {nameOf(child.collectionId)}
                </span>
              )}
            </button>
          </li>
        ))}
      </ul>
      {disabled ? null : (
        <form onSubmit={submit} className="flex gap-1">
          <label htmlFor={id} className="sr-only">
            New sub-item title
          </label>
          <input
            id={id}
            className={`${INPUT} flex-1`}
            placeholder="New sub-item"
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
          <button type="submit" className={SMALL_BUTTON} disabled={create.isPending}>
            Add sub-item
          </button>
        </form>
      )}
      {create.isError ? (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {refusalOf(create.error).message}
        </p>
      ) : null}
    </section>
  );
}
