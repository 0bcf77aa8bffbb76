import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { type BoardData, createCard, type ItemChange } from '../../../../api/board.js';
import { refusalOf } from '../../../../api/errors.js';
import { Button } from '../../../../components/Button.js';
import { TextField } from '../../../../components/TextField.js';
import { insertCard } from './reconcile.js';

interface CardComposerProps {
  workspaceId: string;
  collectionId: string;
  columnKey: string;
  columnName: string;
  where: 'top' | 'bottom';
  /** The column's status or option, set on the new card. */
  change: ItemChange | undefined;
  /** Whether the card may be placed first (manual order; a sorted view places it itself). */
  placeFirst: boolean;
  keys: { board: readonly unknown[]; counts: readonly unknown[] };
  onClose: () => void;
}

/** A property set to null means "none": a new card simply goes without it. */
function withoutEmpty(change: ItemChange | undefined): ItemChange {
  if (change?.properties === undefined) return change ?? {};
  const properties = Object.fromEntries(
    Object.entries(change.properties).filter(([, value]) => value !== null),
  );
  return { ...change, properties };
}

/**
 * Creates a card at the top or the bottom of a column, by its title. Stays
 * open for the next one; a refusal keeps the title typed.
 */
export function CardComposer(props: CardComposerProps) {
  const { workspaceId, collectionId, columnKey, columnName, where, keys, onClose } = props;
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const create = useMutation({
    mutationFn: (text: string) =>
      createCard(workspaceId, collectionId, {
        title: text,
        ...withoutEmpty(props.change),
        ...(where === 'top' && props.placeFirst ? { afterItemId: null } : {}),
      }),
    onSuccess: (item) => {
      setTitle('');
      client.setQueryData<BoardData>(keys.board, (board) =>
        board === undefined ? board : insertCard(board, columnKey, item, where),
      );
      void client.invalidateQueries({ queryKey: keys.board });
      void client.invalidateQueries({ queryKey: keys.counts });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (title.trim() === '') return;
    create.mutate(title.trim());
  };
  const refusal = create.isError ? refusalOf(create.error).message : undefined;
  return (
    <form
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
      className="flex flex-col gap-2 rounded-md border border-zinc-200 bg-white p-2 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <TextField
        label={`New card in ${columnName}`}
        value={title}
        onChange={(event) => setTitle(event.target.value)}
        placeholder="Title"
        autoFocus
        maxLength={500}
        error={refusal}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={create.isPending} className="px-3 py-1">
          Create
        </Button>
        <Button variant="quiet" onClick={onClose} className="px-3 py-1">
          Cancel
        </Button>
      </div>
    </form>
  );
}
