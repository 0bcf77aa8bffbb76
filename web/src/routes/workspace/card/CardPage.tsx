import { useNavigate, useParams } from '@tanstack/react-router';
import { Card } from './Card.js';

/** A card at its own address, /app/{workspace}/{KEY-12}: a link that can be shared and reloaded. */
export function CardPage() {
  const { cardKey } = useParams({ from: '/signed-in/$workspaceSlug/$cardKey' });
  const navigate = useNavigate({ from: '/$workspaceSlug/$cardKey' });
  return (
    <div className="mx-auto w-full max-w-3xl">
      <h1 className="sr-only">Card {cardKey}</h1>
      <Card
        cardKey={cardKey}
        openCard={(key) =>
          navigate({
            to: '/$workspaceSlug/$cardKey',
            params: (previous) => ({ ...previous, cardKey: key }),
          })
        }
        onDeleted={() => navigate({ to: '/$workspaceSlug' })}
      />
    </div>
  );
}
