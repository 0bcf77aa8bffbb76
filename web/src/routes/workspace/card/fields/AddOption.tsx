import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { addFieldOption, type Field } from '../../../../api/items.js';
import { keys } from '../../../../api/keys.js';
import { INPUT, SMALL_BUTTON } from './types.js';

/** Colors offered to a new option, in turn (readable on light and dark). */
const PALETTE = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777'];

/**
 * Adds an option to a select field from the card (admins), then chooses it.
 * The field list is updated from the answer, so the option shows at once.
 */
export function AddOption({
  workspaceId,
  field,
  onAdded,
}: {
  workspaceId: string;
  field: Field;
  onAdded: (optionId: string) => void;
}) {
  const client = useQueryClient();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [label, setLabel] = useState('');
  const count = field.config.options?.length ?? 0;
  const [color, setColor] = useState(PALETTE[count % PALETTE.length] ?? '#2563eb');
  const add = useMutation({
    mutationFn: () => addFieldOption(workspaceId, field.id, label.trim(), color),
    onSuccess: (updated) => {
      client.setQueryData<Field[]>(keys.fields(workspaceId), (fields) =>
        fields?.map((candidate) => (candidate.id === updated.id ? updated : candidate)),
      );
      const option = updated.config.options?.find(
        (candidate) => candidate.label.toLowerCase() === label.trim().toLowerCase(),
      );
      if (option !== undefined) onAdded(option.id);
      setLabel('');
      setOpen(false);
    },
  });
  if (!open) {
    return (
      <button
        type="button"
        className={`${SMALL_BUTTON} self-start`}
        aria-label={`Add an option to ${field.name}`}
        onClick={() => setOpen(true)}
      >
        + Option
      </button>
    );
  }
  const refusal = add.isError ? refusalOf(add.error).message : undefined;
  return (
    <form
      className="mt-1 flex flex-wrap items-center gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        if (label.trim() !== '') add.mutate();
      }}
    >
      <label htmlFor={`${id}-label`} className="sr-only">
        New option of {field.name}
      </label>
      <input
        id={`${id}-label`}
        className={`${INPUT} w-32 flex-1`}
        value={label}
        // biome-ignore lint/a11y/noAutofocus: opened by the person to type the option at once
        autoFocus
        placeholder="New option"
        aria-invalid={refusal !== undefined}
        aria-describedby={refusal === undefined ? undefined : `${id}-error`}
        onChange={(event) => setLabel(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}
      />
      <label htmlFor={`${id}-color`} className="sr-only">
        Color of the new option
      </label>
      <input
        id={`${id}-color`}
        type="color"
        className="h-8 w-8 rounded border border-zinc-300 dark:border-zinc-600"
        value={color}
        onChange={(event) => setColor(event.target.value)}
      />
      <button type="submit" className={SMALL_BUTTON} disabled={add.isPending}>
        Add
      </button>
      <button type="button" className={SMALL_BUTTON} onClick={() => setOpen(false)}>
        Cancel
      </button>
      {refusal === undefined ? null : (
        <p id={`${id}-error`} className="w-full text-xs text-red-700 dark:text-red-300">
          {refusal}
        </p>
      )}
    </form>
  );
}
