import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { type ItemDetail, parentCandidatesQuery } from '../../../api/items.js';
import { INPUT } from './fields/types.js';
import { looksLikeKey, type ParentOption, parentOptions } from './parentOptions.js';

/** Typing settles this long before the lists are asked. */
const SETTLE_MS = 150;

type Entry = { kind: 'remove' } | { kind: 'card'; option: ParentOption };

/**
 * A combobox to pick the card's parent, keyboard first: type part of a title
 * or a key, arrows to move, Enter to pick, Escape to close. Cards the server
 * would refuse are listed with the reason and cannot be picked. With a
 * parent, "Remove parent" is the first entry.
 */
export function ParentPicker({
  workspaceId,
  item,
  listIds,
  childIds,
  nameOf,
  onPick,
}: {
  workspaceId: string;
  item: ItemDetail;
  listIds: readonly string[];
  childIds: ReadonlySet<string>;
  nameOf: (collectionId: string) => string;
  onPick: (parentId: string | null) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [wanted, setWanted] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setWanted(text.trim()), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const found = useQuery({
    ...parentCandidatesQuery(workspaceId, listIds, wanted, looksLikeKey(wanted)),
    enabled: open && wanted !== '',
    placeholderData: keepPreviousData,
  });
  const options =
    wanted === '' || text.trim() === ''
      ? []
      : parentOptions(wanted, found.data ?? [], item, childIds);
  const entries: Entry[] = [
    ...(item.parentId === null ? [] : [{ kind: 'remove' as const }]),
    ...options.map((option) => ({ kind: 'card' as const, option })),
  ];
  const current = Math.min(active, entries.length - 1);
  const optionId = (index: number) => `${id}-option-${index}`;

  const close = () => {
    setOpen(false);
    setActive(0);
  };
  const pick = (entry: Entry | undefined) => {
    if (entry === undefined) return;
    if (entry.kind === 'card' && entry.option.refusal !== undefined) return;
    onPick(entry.kind === 'remove' ? null : entry.option.candidate.id);
    setText('');
    close();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (!open) setOpen(true);
      else if (entries.length > 0) setActive((current + step + entries.length) % entries.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (open) pick(entries[current]);
    } else if (event.key === 'Escape' && (open || text !== '')) {
      // Closes the list first, then clears the text; the card's panel keeps its Escape for after.
      event.stopPropagation();
      if (open) close();
      else setText('');
    }
  };

  const searching = found.isFetching && (found.data === undefined || wanted !== text.trim());
  const status =
    text.trim() === ''
      ? 'Type part of a title, or a key such as RM-3'
      : found.isError
        ? refusalOf(found.error).message
        : options.length === 0
          ? searching || wanted !== text.trim()
            ? 'Searching…'
            : 'No card matches'
          : undefined;
  return (
    <div className="relative">
      <label htmlFor={`${id}-input`} className="sr-only">
        Parent card
      </label>
      <input
        id={`${id}-input`}
        role="combobox"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={open && current >= 0 ? optionId(current) : undefined}
        autoComplete="off"
        className={INPUT}
        placeholder={item.parentId === null ? 'Set parent…' : 'Change parent…'}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      {open ? (
        <div className="absolute right-0 left-0 z-20 mt-1 max-h-80 overflow-y-auto rounded-md border border-zinc-200 bg-white p-1 shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
          <div id={`${id}-list`} role="listbox" aria-label="Parent candidates">
            {entries.map((entry, index) => (
              <EntryRow
                key={entry.kind === 'remove' ? 'remove' : entry.option.candidate.id}
                id={optionId(index)}
                entry={entry}
                active={index === current}
                homeId={item.collectionId}
                nameOf={nameOf}
                onPick={() => pick(entry)}
              />
            ))}
          </div>
          {status === undefined ? null : (
            <p className="px-2 py-1.5 text-xs text-zinc-600 dark:text-zinc-400">{status}</p>
          )}
        </div>
      ) : null}
    </div>
  );
}

function EntryRow({
  id,
  entry,
  active,
  homeId,
  nameOf,
  onPick,
}: {
  id: string;
  entry: Entry;
  active: boolean;
  homeId: string;
  nameOf: (collectionId: string) => string;
  onPick: () => void;
}) {
  const refusal = entry.kind === 'card' ? entry.option.refusal : undefined;
  return (
    // The input keeps the focus and the keys (aria-activedescendant); a click picks too.
    // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={active}
      aria-disabled={refusal === undefined ? undefined : true}
      className={`flex cursor-default flex-col rounded px-2 py-1.5 text-sm ${
        active ? 'bg-blue-50 text-blue-900 dark:bg-blue-950 dark:text-blue-100' : ''
      } ${refusal === undefined ? '' : 'text-zinc-600 dark:text-zinc-400'}`}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPick}
    >
      {entry.kind === 'remove' ? (
        <span>Remove parent</span>
      ) : (
        <span className="truncate">
          <span className="mr-1 text-zinc-600 dark:text-zinc-400">
            {entry.option.candidate.key}
          </span>{' '}
          {entry.option.candidate.title}{' '}
          {entry.option.candidate.collectionId === homeId ? null : (
            <span className="ml-1 text-xs text-zinc-600 dark:text-zinc-400">
              in {nameOf(entry.option.candidate.collectionId)}
            </span>
          )}
        </span>
      )}
      {refusal === undefined ? null : <span className="text-xs">{refusal}</span>}
    </div>
  );
}
