import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from '../../../api/client.js';
import { refusalOf } from '../../../api/errors.js';
import { itemQuery } from '../../../api/items.js';
import { useWorkspace } from '../context.js';
import { CardView } from './CardView.js';

/** A card by its key, as the panel and the page show it; its absence or a failure in words. */
export function Card({
  cardKey,
  openCard,
  onDeleted,
  closeButton,
}: {
  cardKey: string;
  openCard: (key: string) => void;
  onDeleted: () => void;
  closeButton?: ReactNode;
}) {
  const workspace = useWorkspace();
  const item = useQuery(itemQuery(workspace.id, cardKey));
  if (item.isPending) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading {cardKey}…</p>;
  }
  if (item.isError) {
    const missing =
      item.error instanceof ApiError && (item.error.status === 404 || item.error.status === 400);
    return (
      <div className="flex items-start justify-between gap-2">
        <p role="alert" className="text-sm">
          {missing ? `No card has the key ${cardKey}.` : refusalOf(item.error).message}
        </p>
        {closeButton}
      </div>
    );
  }
  // Keyed by the card's id, so that opening another card starts its drafts and editor afresh.
  return (
    <CardView
      key={item.data.id}
      item={item.data}
      cacheKey={cardKey}
      openCard={openCard}
      onDeleted={onDeleted}
      closeButton={closeButton}
    />
  );
}
