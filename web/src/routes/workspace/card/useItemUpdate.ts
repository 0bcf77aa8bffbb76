import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ItemDetail, type UpdateItem, updateItem } from '../../../api/items.js';
import { keys } from '../../../api/keys.js';

/** The card as it will be once the server applies the patch (properties merge, null removes). */
export function applyPatch(item: ItemDetail, patch: UpdateItem): ItemDetail {
  const { properties, archived, ...rest } = patch;
  const next: ItemDetail = { ...item, ...rest, blocks: patch.blocks ?? item.blocks };
  if (properties !== undefined) {
    const merged: Record<string, unknown> = { ...item.properties };
    for (const [key, value] of Object.entries(properties)) {
      if (value === null) delete merged[key];
      else merged[key] = value;
    }
    next.properties = merged;
  }
  if (archived !== undefined) {
    next.archived = archived;
    next.archivedAt = archived ? new Date().toISOString() : null;
  }
  return next;
}

/** A change, shown at once unless `optimistic` is false (typed values keep what was typed). */
export interface ItemChange {
  patch: UpdateItem;
  optimistic?: boolean;
}

/**
 * A change of the card shown at once (optimistic) and rolled back when the
 * server refuses it; the lists showing it are refreshed after.
 */
export function useItemUpdate(workspaceId: string, cacheKey: string, itemId: string) {
  const client = useQueryClient();
  const key = keys.item(workspaceId, cacheKey);
  return useMutation({
    mutationFn: ({ patch }: ItemChange) => updateItem(workspaceId, itemId, patch),
    onMutate: async ({ patch, optimistic = true }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<ItemDetail>(key);
      if (!optimistic) return { before: undefined };
      if (before !== undefined) client.setQueryData(key, applyPatch(before, patch));
      return { before };
    },
    onError: (_error, _patch, context) => {
      if (context?.before !== undefined) client.setQueryData(key, context.before);
    },
    onSuccess: (saved) => {
      // The draft saver owns title and body: keep what is shown for them.
      client.setQueryData<ItemDetail>(key, (shown) =>
        shown === undefined ? saved : { ...saved, title: shown.title, blocks: shown.blocks },
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: keys.inWorkspace(workspaceId, 'items') }),
  });
}
