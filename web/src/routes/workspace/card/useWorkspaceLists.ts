import { useSuspenseQuery } from '@tanstack/react-query';
import { collectionsQuery } from '../../../api/lists.js';

/**
 * The workspace's lists as a card sees them: their ids with the card's home
 * list first (the order its sub-items and parent candidates are read in), and
 * a list's name by its id.
 */
export function useWorkspaceLists(workspaceId: string, homeId: string) {
  const collections = useSuspenseQuery(collectionsQuery(workspaceId)).data;
  const listIds = [
    homeId,
    ...collections.map((collection) => collection.id).filter((id) => id !== homeId),
  ];
  const nameOf = (collectionId: string) =>
    collections.find((collection) => collection.id === collectionId)?.name ?? 'Another list';
  return { listIds, nameOf };
}
