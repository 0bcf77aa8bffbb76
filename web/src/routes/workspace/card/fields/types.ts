import type { Field, Member } from '../../../../api/items.js';

/** What every property editor gets: the field, its value on the card, and how to change it. */
export interface EditorProps {
  field: Field;
  /** The id of the control, for the row's label. */
  id: string;
  value: unknown;
  /** A new value; null removes the property. */
  onChange: (value: unknown) => void;
  disabled: boolean;
}

export interface PeopleProps extends EditorProps {
  members: Member[];
}

export const INPUT =
  'w-full min-w-0 rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 disabled:opacity-60 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:focus-visible:outline-blue-400';

export const CHIP =
  'inline-flex items-center gap-1 rounded-full border border-zinc-300 px-2 py-0.5 text-xs dark:border-zinc-600';

export const SMALL_BUTTON =
  'rounded px-1.5 text-xs text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-300 dark:hover:bg-zinc-800';

export function asString(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

export function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [];
}
