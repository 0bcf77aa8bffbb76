import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../../api/client.js';
import type { WorkspaceEvent } from '../../../api/events.js';
import { keys } from '../../../api/keys.js';

export interface CardName {
  title: string;
  key: string;
}

/**
 * The title and key of the cards the shown events are about, looked up once
 * per card (the log names a card by id; only some events carry its title).
 * A card deleted since answers 404 and stays unnamed unless its events say.
 */
export function useCardNames(
  workspaceId: string,
  events: readonly WorkspaceEvent[],
): ReadonlyMap<string, CardName> {
  const ids = useMemo(
    () => [
      ...new Set(
        events
          .filter((event) => event.resource.kind === 'item' && event.type !== 'item.deleted')
          .map((event) => event.resource.id),
      ),
    ],
    [events],
  );
  const answers = useQueries({
    queries: ids.map((itemId) => ({
      queryKey: keys.item(workspaceId, itemId),
      queryFn: () =>
        unwrap(
          api.GET('/workspaces/{workspaceId}/items/{itemId}', {
            params: { path: { workspaceId, itemId } },
          }),
        ),
      retry: false,
      staleTime: 60_000,
    })),
  });
  const signature = answers.map((answer) => answer.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the answers array is new at each render; its data changes only with the signature.
  return useMemo(() => {
    const names = new Map<string, CardName>();
    answers.forEach((answer, index) => {
      const id = ids[index];
      if (id !== undefined && answer.data !== undefined) {
        names.set(id, { title: answer.data.title, key: answer.data.key });
      }
    });
    return names;
  }, [signature, ids]);
}
