import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Card } from './Card.js';

/**
 * A card beside the list that opened it (`?card=KEY`); full-screen on a
 * phone. Escape (outside the editor and menus) closes it.
 */
export function CardPanel({ cardKey, onClose }: { cardKey: string; onClose: () => void }) {
  const navigate = useNavigate({ from: '/$workspaceSlug/lists/$listId' });
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), []);
  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label={`Card ${cardKey}`}
      onKeyDown={(event) => {
        if (event.key === 'Escape' && event.target === event.currentTarget) onClose();
      }}
      className="fixed inset-0 z-30 overflow-y-auto bg-white p-4 text-zinc-900 focus-visible:outline-none md:static md:z-auto md:w-[30rem] md:shrink-0 md:border-l md:border-zinc-200 md:bg-transparent dark:bg-zinc-950 dark:text-zinc-100 md:dark:border-zinc-800 md:dark:bg-transparent"
    >
      <Card
        cardKey={cardKey}
        openCard={(key) => navigate({ search: (previous) => ({ ...previous, card: key }) })}
        onDeleted={onClose}
        closeButton={
          <button
            type="button"
            onClick={onClose}
            className="rounded-md px-2 py-1 text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
          >
            Close
          </button>
        }
      />
    </aside>
  );
}
