import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { KeyboardEvent } from 'react';
import type { Field, Item } from '../../../../api/board.js';
import { fieldText } from './cardFields.js';

interface CardBodyProps {
  item: Item;
  fields: readonly Field[];
}

/** What a card shows: its key, its title, a few of its fields. */
export function CardBody({ item, fields }: CardBodyProps) {
  const texts = fields
    .map((field) => ({ field, text: fieldText(field, item) }))
    .filter((entry): entry is { field: Field; text: string } => entry.text !== undefined);
  return (
    <>
      <span className="block text-xs font-medium text-zinc-600 dark:text-zinc-400">{item.key}</span>
      <span className="mt-0.5 block text-sm break-words text-zinc-900 dark:text-zinc-100">
        {item.title}
      </span>
      {texts.length === 0 ? null : (
        <span className="mt-2 flex flex-wrap gap-1">
          {texts.map(({ field, text }) => (
            <span
              key={field.id}
              title={field.name}
              className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
            >
              {text}
            </span>
          ))}
        </span>
      )}
    </>
  );
}

export const CARD_CLASS =
  'block w-full cursor-pointer rounded-md border border-zinc-200 bg-white p-2.5 text-left shadow-xs hover:border-zinc-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:border-zinc-600 dark:focus-visible:outline-blue-400';

interface BoardCardProps extends CardBodyProps {
  columnKey: string;
  index: number;
  canDrag: boolean;
  openCard: (cardKey: string) => void;
}

/**
 * A card of a column: a button that opens it (click, Enter) and a handle
 * that drags it (pointer, or Space then the arrows then Space).
 */
export function BoardCard({ item, fields, columnKey, index, canDrag, openCard }: BoardCardProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: item.id,
    data: { columnKey, index },
    disabled: !canDrag,
  });
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    listeners?.onKeyDown?.(event);
    if (event.key === 'Enter' && !isDragging && !event.defaultPrevented) openCard(item.key);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dnd-kit's attributes make it a focusable role="button" (a <button> would also click on the Space that drops it).
    <div
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      onKeyDown={onKeyDown}
      onClick={() => openCard(item.key)}
      data-card-key={item.key}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      className={`${CARD_CLASS} ${isDragging ? 'opacity-40' : ''}`}
    >
      <CardBody item={item} fields={fields} />
    </div>
  );
}
