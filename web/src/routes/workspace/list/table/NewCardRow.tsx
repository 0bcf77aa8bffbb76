import { Link } from '@tanstack/react-router';
import { type FormEvent, useRef, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { useCreateItem } from '../../../../api/item-pages.js';
import { useCommands } from '../../../../commands/registry.js';

/**
 * Creates a card from its title without leaving the keyboard: type, Enter,
 * and the field is ready for the next one. `c` (or the palette's "Create
 * card") brings the focus here. A refusal keeps the title typed.
 */
export function NewCardRow({
  workspaceId,
  collectionId,
}: {
  workspaceId: string;
  collectionId: string;
}) {
  const create = useCreateItem(workspaceId, collectionId);
  const [title, setTitle] = useState('');
  const [created, setCreated] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  useCommands([
    {
      id: 'card.create',
      label: 'Create card',
      group: 'Card',
      shortcut: 'c',
      keywords: ['new', 'add'],
      run: () => input.current?.focus(),
    },
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') return;
    create.mutate(
      { title: title.trim() },
      {
        onSuccess: (item) => {
          setTitle('');
          setCreated(item.key);
        },
      },
    );
  };
  const refusal = create.error === null ? undefined : refusalOf(create.error);
  return (
    <form onSubmit={submit} className="flex flex-wrap items-center gap-2">
      <label htmlFor="new-card-title" className="sr-only">
        New card title
      </label>
      <input
        id="new-card-title"
        ref={input}
        value={title}
        maxLength={500}
        autoComplete="off"
        placeholder="+ New card: type a title, then Enter (c)"
        aria-invalid={refusal === undefined ? undefined : true}
        aria-describedby={refusal === undefined ? undefined : 'new-card-error'}
        onChange={(event) => setTitle(event.target.value)}
        className="min-w-64 flex-1 rounded-md border border-dashed border-zinc-300 bg-white px-3 py-1.5 text-sm outline-none placeholder:text-zinc-500 focus-visible:border-solid focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/40 dark:border-zinc-600 dark:bg-zinc-900 dark:placeholder:text-zinc-400"
      />
      {refusal === undefined ? null : (
        <p id="new-card-error" className="w-full text-sm text-red-700 dark:text-red-300">
          {refusal.message}
        </p>
      )}
      <p aria-live="polite" className="text-sm text-zinc-600 dark:text-zinc-400">
        {created === undefined ? null : (
          <>
            Created{' '}
            <Link
              to="."
              search={(previous: Record<string, unknown>) => ({ ...previous, card: created })}
              className="font-mono text-blue-700 underline focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-blue-400"
            >
              {created}
            </Link>
          </>
        )}
      </p>
    </form>
  );
}
