import { queryOptions } from '@tanstack/react-query';
import { ApiError, api, unwrap } from './client.js';
import { keys } from './keys.js';
import type { components } from './schema.js';

/** One definition per cache key: re-exported for this module's users. */
export { fieldsQuery } from './fields.js';
export { membersQuery } from './members.js';
export { statusesQuery } from './statuses.js';

export type Item = components['schemas']['Item'];
export type ItemDetail = components['schemas']['ItemDetail'];
export type UpdateItem = components['schemas']['UpdateItem'];
export type Field = components['schemas']['Field'];
export type Status = components['schemas']['Status'];
export type Member = components['schemas']['Member'];

/** One card by its key (`ENG-12`) or id, with its body. */
export const itemQuery = (workspaceId: string, itemIdOrKey: string) =>
  queryOptions({
    queryKey: keys.item(workspaceId, itemIdOrKey),
    queryFn: () =>
      unwrap(
        api.GET('/workspaces/{workspaceId}/items/{itemId}', {
          params: { path: { workspaceId, itemId: itemIdOrKey } },
        }),
      ),
  });

type ViewDefinition = components['schemas']['ViewDefinition'];

/**
 * The cards a view definition selects in each of the lists, each card once (a card
 * attached to several lists is found in each), in the order of the lists.
 */
async function queryLists(
  workspaceId: string,
  collectionIds: readonly string[],
  definition: ViewDefinition,
  limit: number,
): Promise<Item[]> {
  const pages = await Promise.all(
    collectionIds.map((collectionId) =>
      unwrap(
        api.POST('/workspaces/{workspaceId}/collections/{collectionId}/query', {
          params: { path: { workspaceId, collectionId } },
          body: { definition, limit },
        }),
      ),
    ),
  );
  const byId = new Map<string, Item>();
  for (const found of pages.flatMap((page) => page.items)) {
    if (!byId.has(found.id)) byId.set(found.id, found);
  }
  return [...byId.values()];
}

/**
 * A card's sub-items wherever they are homed: the query of every list with a
 * filter on the parent (a sub-item is always found in its home list), the
 * card's home list first. Keyed under the lists' items, so a change to any
 * card refreshes it.
 */
export const subItemsQuery = (
  workspaceId: string,
  collectionIds: readonly string[],
  parentId: string,
) =>
  queryOptions({
    queryKey: keys.inWorkspace(workspaceId, 'items', 'children', parentId, collectionIds.join()),
    queryFn: () =>
      queryLists(
        workspaceId,
        collectionIds,
        { filter: { attribute: 'parentId', op: 'eq', value: parentId } },
        200,
      ),
  });

/**
 * Cards a person may mean by a typed text, to pick a parent: the card with
 * that key when the text is written like one, and the cards of every list
 * whose title contains the text (the workspace search matches whole words
 * only, too little while typing).
 */
export const parentCandidatesQuery = (
  workspaceId: string,
  collectionIds: readonly string[],
  text: string,
  looksLikeKey: boolean,
) =>
  queryOptions({
    queryKey: keys.inWorkspace(
      workspaceId,
      'items',
      'parent-candidates',
      collectionIds.join(),
      text,
    ),
    queryFn: async (): Promise<Item[]> => {
      const [byKey, byTitle] = await Promise.all([
        looksLikeKey ? itemByKeyOrNone(workspaceId, text) : null,
        queryLists(
          workspaceId,
          collectionIds,
          { filter: { attribute: 'title', op: 'contains', value: text } },
          12,
        ),
      ]);
      return byKey === null ? byTitle : [byKey, ...byTitle];
    },
  });

/** The card with that key, or null when none has it. */
async function itemByKeyOrNone(workspaceId: string, key: string): Promise<ItemDetail | null> {
  try {
    return await unwrap(
      api.GET('/workspaces/{workspaceId}/items/{itemId}', {
        params: { path: { workspaceId, itemId: key } },
      }),
    );
  } catch (failure) {
    if (failure instanceof ApiError && (failure.status === 404 || failure.status === 400)) {
      return null;
    }
    throw failure;
  }
}

export function updateItem(workspaceId: string, itemId: string, body: UpdateItem) {
  return unwrap(
    api.PATCH('/workspaces/{workspaceId}/items/{itemId}', {
      params: { path: { workspaceId, itemId } },
      body,
    }),
  );
}

export function createItem(
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

export function deleteItem(workspaceId: string, itemId: string) {
  return unwrap(
    api.DELETE('/workspaces/{workspaceId}/items/{itemId}', {
      params: { path: { workspaceId, itemId } },
    }),
  );
}

export function duplicateItem(workspaceId: string, itemId: string) {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/items/{itemId}/duplicate', {
      params: { path: { workspaceId, itemId } },
    }),
  );
}

export function attachItem(workspaceId: string, itemId: string, collectionId: string) {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/items/{itemId}/collections', {
      params: { path: { workspaceId, itemId } },
      body: { collectionId },
    }),
  );
}

export function detachItem(workspaceId: string, itemId: string, collectionId: string) {
  return unwrap(
    api.DELETE('/workspaces/{workspaceId}/items/{itemId}/collections/{collectionId}', {
      params: { path: { workspaceId, itemId, collectionId } },
    }),
  );
}

/** Adds an option to a select or multi-select field (admins); answers the field. */
export function addFieldOption(workspaceId: string, fieldId: string, label: string, color: string) {
  return unwrap(
    api.POST('/workspaces/{workspaceId}/fields/{fieldId}/options', {
      params: { path: { workspaceId, fieldId } },
      body: { label, color },
    }),
  );
}
