import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { attachItem, detachItem, type ItemDetail } from '../../../api/items.js';
import { keys } from '../../../api/keys.js';
import { collectionsQuery } from '../../../api/lists.js';
import { CHIP, INPUT, SMALL_BUTTON } from './fields/types.js';

/** The card's home list and the lists it is attached to: attach to another, detach. */
export function ListsField({
  workspaceId,
  cacheKey,
  item,
  disabled,
}: {
  workspaceId: string;
  cacheKey: string;
  item: ItemDetail;
  disabled: boolean;
}) {
  const id = useId();
  const client = useQueryClient();
  const collections = useSuspenseQuery(collectionsQuery(workspaceId)).data;
  const nameOf = (collectionId: string) =>
    collections.find((collection) => collection.id === collectionId)?.name ?? 'A list';
  const change = useMutation({
    mutationFn: ({ collectionId, attach }: { collectionId: string; attach: boolean }) =>
      attach
        ? attachItem(workspaceId, item.id, collectionId)
        : detachItem(workspaceId, item.id, collectionId),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: keys.item(workspaceId, cacheKey) }),
        client.invalidateQueries({ queryKey: keys.inWorkspace(workspaceId, 'items') }),
      ]),
  });
  const others = collections.filter(
    (collection) =>
      collection.id !== item.collectionId && !item.collectionIds.includes(collection.id),
  );
  return (
    <div className="grid grid-cols-[minmax(6rem,9rem)_1fr] items-start gap-2 py-1">
      <label htmlFor={id} className="pt-1.5 text-sm text-zinc-700 dark:text-zinc-300">
        Lists
      </label>
      <div className="flex min-w-0 flex-col gap-1">
        <ul aria-label="Lists of the card" className="flex flex-wrap gap-1">
          <li className={CHIP}>
            {nameOf(item.collectionId)}{' '}
            <span className="text-zinc-500 dark:text-zinc-400">(home)</span>
          </li>
          {item.collectionIds.map((collectionId) => (
            <li key={collectionId} className={CHIP}>
              {nameOf(collectionId)}
              {disabled ? null : (
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  aria-label={`Detach from ${nameOf(collectionId)}`}
                  onClick={() => change.mutate({ collectionId, attach: false })}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
        {disabled ? null : (
          <select
            id={id}
            className={INPUT}
            value=""
            disabled={others.length === 0 || change.isPending}
            onChange={(event) =>
              event.target.value !== '' &&
              change.mutate({ collectionId: event.target.value, attach: true })
            }
          >
            <option value="">{others.length === 0 ? 'In every list' : 'Attach to a list…'}</option>
            {others.map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.name}
              </option>
            ))}
          </select>
        )}
        {change.isError ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {refusalOf(change.error).message}
          </p>
        ) : null}
      </div>
    </div>
  );
}
