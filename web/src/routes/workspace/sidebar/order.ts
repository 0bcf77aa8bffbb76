import type { Collection, CollectionGroup, ReorderCollections } from '../../../api/lists.js';

/**
 * The sidebar as one sequence: the lists without a group first, then each
 * group's header followed by its lists. Dragging a list moves it in this
 * sequence; the header above it names its group. So one sortable sequence
 * moves lists within and between groups, and the keyboard reaches both.
 */
export type SidebarEntry =
  | { kind: 'group'; id: string; group: CollectionGroup }
  | { kind: 'list'; id: string; collection: Collection };

/** Group headers' ids in the sequence, apart from lists' ids. */
export const groupEntryId = (groupId: string) => `group:${groupId}`;

const byPosition = (a: { position: number }, b: { position: number }) => a.position - b.position;

export function sidebarEntries(
  collections: readonly Collection[],
  groups: readonly CollectionGroup[],
): SidebarEntry[] {
  const known = new Set(groups.map((group) => group.id));
  const listsOf = (groupId: string | null): SidebarEntry[] =>
    collections
      .filter((collection) =>
        groupId === null
          ? collection.groupId === null || !known.has(collection.groupId)
          : collection.groupId === groupId,
      )
      .sort(byPosition)
      .map((collection) => ({ kind: 'list', id: collection.id, collection }));
  return [
    ...listsOf(null),
    ...[...groups]
      .sort(byPosition)
      .flatMap((group): SidebarEntry[] => [
        { kind: 'group', id: groupEntryId(group.id), group },
        ...listsOf(group.id),
      ]),
  ];
}

/** The sequence after moving the list `activeId` to where `overId` stands; undefined: no move. */
export function moveList(
  entries: readonly SidebarEntry[],
  activeId: string,
  overId: string,
): SidebarEntry[] | undefined {
  const from = entries.findIndex((entry) => entry.id === activeId);
  const to = entries.findIndex((entry) => entry.id === overId);
  if (from === -1 || to === -1 || from === to || entries[from]?.kind !== 'list') return undefined;
  const next = [...entries];
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return undefined;
  next.splice(to, 0, moved);
  return next;
}

/** The one `PUT .../collections/order` body of a sequence: every list, in order, with its group. */
export function reorderBody(entries: readonly SidebarEntry[]): ReorderCollections {
  let groupId: string | null = null;
  const collections: ReorderCollections['collections'] = [];
  for (const entry of entries) {
    if (entry.kind === 'group') groupId = entry.group.id;
    else collections.push({ id: entry.collection.id, groupId });
  }
  return { collections };
}
