import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

/** One definition per cache key: re-exported for this module's users. */
export { fieldsQuery } from './fields.js';
export { statusesQuery } from './statuses.js';

export type Item = components['schemas']['Item'];
export type Status = components['schemas']['Status'];
export type Field = components['schemas']['Field'];
export type GroupCount = components['schemas']['GroupCount'];
export type GroupValue = GroupCount['value'];
/** What moving a card between columns writes: its status or a property. */
export type ItemChange = Pick<components['schemas']['UpdateItem'], 'statusId' | 'properties'>;

/** One column of the board as cached: its cards loaded so far and the cursor to the next ones. */
export interface BoardPage {
  key: string;
  value: GroupValue;
  count: number;
  items: Item[];
  nextCursor: string | null;
}

export interface BoardData {
  columns: BoardPage[];
}

/**
 * The first page of every column, small, in one request: the board paints
 * its first columns at once even over a million cards, and each column
 * fetches more when scrolled to its end.
 */
export const FIRST_PAGE = 20;
export const NEXT_PAGE = 50;
const MAX_PAGE = 200;
/** The API fills at most 50 groups in one grouped query. */
export const MAX_COLUMNS = 50;

/** The board's column counts (and the groups only the cards know, an option since removed). */
export const groupCountsQuery = (
  workspaceId: string,
  collectionId: string,
  definition: Record<string, unknown>,
) =>
  queryOptions({
    queryKey: [...keys.items(workspaceId, collectionId), 'group-counts', definition] as const,
    queryFn: () =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/group-counts', {
          params: { path: { workspaceId, collectionId } },
          body: { definition },
        }),
      ),
  });

export const boardKey = (
  workspaceId: string,
  collectionId: string,
  definition: Record<string, unknown>,
  groups: readonly GroupValue[],
) => [...keys.items(workspaceId, collectionId), 'board', definition, groups] as const;

async function groupedQuery(
  workspaceId: string,
  collectionId: string,
  body: components['schemas']['GroupedQuery'],
  signal?: AbortSignal,
) {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/collections/{collectionId}/grouped-query', {
      params: { path: { workspaceId, collectionId } },
      body,
      ...(signal === undefined ? {} : { signal }),
    }),
  );
}

function keyOf(value: GroupValue): string {
  return value === null ? 'null' : String(value);
}

/**
 * Every column's first cards. Fetched again (the live stream, a write), it
 * reloads as many cards per column as were shown (up to 200), so a column
 * scrolled down does not jump back to its first page.
 */
export const boardQuery = (
  workspaceId: string,
  collectionId: string,
  definition: Record<string, unknown>,
  groups: readonly GroupValue[],
) =>
  queryOptions({
    queryKey: boardKey(workspaceId, collectionId, definition, groups),
    queryFn: async ({ client, queryKey, signal }): Promise<BoardData> => {
      const shown = client.getQueryData<BoardData>(queryKey);
      const longest = Math.max(0, ...(shown?.columns.map((column) => column.items.length) ?? []));
      const limit = Math.min(MAX_PAGE, Math.max(FIRST_PAGE, longest));
      const page = await groupedQuery(
        workspaceId,
        collectionId,
        { definition, groups: [...groups], limit },
        signal,
      );
      return {
        columns: page.groups.map((group) => ({
          key: keyOf(group.value),
          value: group.value,
          count: group.count,
          items: group.items,
          nextCursor: group.nextCursor,
        })),
      };
    },
    enabled: groups.length > 0,
    staleTime: 10_000,
  });

/** The next cards of one column, after its cursor. */
export async function fetchColumnPage(
  workspaceId: string,
  collectionId: string,
  definition: Record<string, unknown>,
  column: { value: GroupValue; nextCursor: string },
) {
  const page = await groupedQuery(workspaceId, collectionId, {
    definition,
    groups: [column.value],
    cursors: { [keyOf(column.value)]: column.nextCursor },
    limit: NEXT_PAGE,
  });
  const group = page.groups[0];
  return group ?? { items: [], nextCursor: null, count: 0 };
}

/** Writes a card's new column (status or property) and, without a sort, its place. */
export function updateCard(
  workspaceId: string,
  itemId: string,
  body: components['schemas']['UpdateItem'],
) {
  return unwrap(
    api.PATCH('/workspaces/{workspaceId}/items/{itemId}', {
      params: { path: { workspaceId, itemId } },
      body,
    }),
  );
}

/** Places a card after another of its list (null: first), its column unchanged. */
export function moveCardAfter(workspaceId: string, itemId: string, afterItemId: string | null) {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/items/{itemId}/move', {
      params: { path: { workspaceId, itemId } },
      body: { afterItemId },
    }),
  );
}

export function createCard(
  workspaceId: string,
  collectionId: string,
  body: components['schemas']['CreateItem'],
) {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/collections/{collectionId}/items', {
      params: { path: { workspaceId, collectionId } },
      body,
    }),
  );
}
