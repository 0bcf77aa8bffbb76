import { type ReactNode, useId } from 'react';
import { Button } from './Button.js';

interface ListFieldProps {
  legend: string;
  hint: string;
  changed: boolean;
  error: string | undefined;
  empty: string;
  count: number;
  addLabel: string;
  onAdd: () => void;
  children: ReactNode;
}

export const INPUT =
  'w-full rounded-md border border-zinc-300 bg-white px-3 py-1.5 text-sm text-zinc-900 outline-none focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/40 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100';

/** A list setting: its rows, an add button, its hint (the PATCH rule) and its refusal. */
export function ListField(props: ListFieldProps) {
  const id = useId();
  return (
    <fieldset
      aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
      aria-invalid={props.error ? true : undefined}
      className="flex flex-col gap-2 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700"
    >
      <legend className="px-1 text-sm font-medium">
        {props.legend}
        {props.changed ? (
          <span className="ml-2 text-xs font-normal text-amber-800 dark:text-amber-300">
            (changed)
          </span>
        ) : null}
      </legend>
      <p id={`${id}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
        {props.hint}
      </p>
      {props.count === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">{props.empty}</p>
      ) : (
        <ul className="flex flex-col gap-2">{props.children}</ul>
      )}
      {props.error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-300">
          {props.error}
        </p>
      ) : null}
      <Button variant="quiet" className="self-start" onClick={props.onAdd}>
        {props.addLabel}
      </Button>
    </fieldset>
  );
}

/** The remove button of a row, named for what it removes. */
export function RemoveRow({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <Button variant="quiet" className="shrink-0 px-3 py-1.5" aria-label={label} onClick={onRemove}>
      Remove
    </Button>
  );
}

/** The list without the item at `index`. */
export function without<T>(list: readonly T[], index: number): T[] {
  return list.filter((_, at) => at !== index);
}

/** The list with the item at `index` replaced. */
export function replaced<T>(list: readonly T[], index: number, item: T): T[] {
  return list.map((current, at) => (at === index ? item : current));
}
