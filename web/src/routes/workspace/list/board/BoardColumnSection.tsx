import type { ReactNode } from 'react';
import type { BoardColumn } from './grouping.js';

interface BoardColumnSectionProps {
  column: BoardColumn;
  count: number | undefined;
  collapsed: boolean;
  onToggle: () => void;
  /** Opens the composer at the top of the column; undefined when cards cannot be made here. */
  onAddTop: (() => void) | undefined;
  children: ReactNode;
}

const ICON_BUTTON =
  'rounded px-1.5 text-sm text-zinc-600 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800 dark:hover:text-zinc-100 dark:focus-visible:outline-blue-400';

function ColumnCount({ count }: { count: number | undefined }) {
  return (
    <span data-column-count className="text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
      {count === undefined ? '…' : count.toLocaleString()}
      <span className="sr-only">{count === 1 ? ' card' : ' cards'}</span>
    </span>
  );
}

/** A column of the board: its name, color and count, collapsed or open. */
export function BoardColumnSection(props: BoardColumnSectionProps) {
  const { column, count, collapsed, onToggle, onAddTop, children } = props;
  const dot = (
    <span
      aria-hidden="true"
      className="inline-block size-2.5 shrink-0 rounded-full bg-zinc-400"
      style={column.color === null ? undefined : { backgroundColor: column.color }}
    />
  );
  if (collapsed) {
    return (
      <section
        aria-label={column.name}
        className="flex w-11 shrink-0 flex-col items-center gap-2 rounded-lg bg-zinc-100 py-2 dark:bg-zinc-900/60"
      >
        <button
          type="button"
          onClick={onToggle}
          aria-label={`Expand ${column.name}`}
          aria-expanded={false}
          className={ICON_BUTTON}
        >
          ›
        </button>
        {dot}
        <h2 className="text-sm font-medium [writing-mode:vertical-rl]">{column.name}</h2>
        <ColumnCount count={count} />
      </section>
    );
  }
  return (
    <section
      aria-label={column.name}
      className="flex w-72 shrink-0 flex-col gap-2 rounded-lg bg-zinc-100 p-2 dark:bg-zinc-900/60"
    >
      <header className="flex items-center gap-2 px-1">
        {dot}
        <h2 className="truncate text-sm font-semibold">{column.name}</h2>
        <ColumnCount count={count} />
        <span className="flex-1" />
        {onAddTop === undefined ? null : (
          <button
            type="button"
            onClick={onAddTop}
            aria-label={`Add a card at the top of ${column.name}`}
            className={ICON_BUTTON}
          >
            +
          </button>
        )}
        <button
          type="button"
          onClick={onToggle}
          aria-label={`Collapse ${column.name}`}
          aria-expanded={true}
          className={ICON_BUTTON}
        >
          ‹
        </button>
      </header>
      {children}
    </section>
  );
}
