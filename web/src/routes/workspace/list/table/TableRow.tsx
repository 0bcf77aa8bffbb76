// biome-ignore-all lint/a11y/useSemanticElements: a virtualized grid positions its rows itself, which <table> layout does not allow; the ARIA grid roles say what the elements are.
// biome-ignore-all lint/a11y/useFocusableInteractive: in a grid the rows take the focus (one at a time, by the arrow keys), not every cell and header.
import type { VirtualItem } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo } from 'react';
import type { Item } from '../../../../api/item-pages.js';
import { Cell, type Lookups } from './Cell.js';
import type { TableColumn } from './columns.js';

interface TableRowProps {
  item: Item;
  virtual: VirtualItem;
  columns: readonly TableColumn[];
  template: string;
  lookups: Lookups;
  /** The one row in the tab order (roving focus). */
  active: boolean;
  onOpen: (cardKey: string) => void;
  onKeyDown: (event: KeyboardEvent<HTMLDivElement>, index: number) => void;
  onFocus: (index: number) => void;
}

const CELL = 'flex min-w-0 items-center overflow-hidden px-2';

/** One card of the table: a click or Enter opens it. */
export const TableRow = memo(function TableRow({
  item,
  virtual,
  columns,
  template,
  lookups,
  active,
  onOpen,
  onKeyDown,
  onFocus,
}: TableRowProps) {
  return (
    <div
      role="row"
      aria-rowindex={virtual.index + 2}
      data-card-key={item.key}
      data-index={virtual.index}
      tabIndex={active ? 0 : -1}
      onClick={() => onOpen(item.key)}
      onKeyDown={(event) => onKeyDown(event, virtual.index)}
      onFocus={() => onFocus(virtual.index)}
      className="absolute top-0 left-0 grid w-full cursor-pointer border-b border-zinc-100 text-sm hover:bg-zinc-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-800 dark:hover:bg-zinc-800/60"
      style={{
        height: virtual.size,
        transform: `translateY(${virtual.start}px)`,
        gridTemplateColumns: template,
      }}
    >
      <div role="gridcell" className={`${CELL} font-mono text-xs text-zinc-600 dark:text-zinc-400`}>
        {item.key}
      </div>
      <div role="gridcell" className={`${CELL} font-medium`}>
        <span className="truncate">{item.title}</span>
      </div>
      {columns.map((column) => (
        <div role="gridcell" key={column.id} className={CELL}>
          <Cell item={item} target={column.target} lookups={lookups} />
        </div>
      ))}
    </div>
  );
});
