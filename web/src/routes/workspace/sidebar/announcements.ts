import type { Announcements, UniqueIdentifier } from '@dnd-kit/core';
import type { SidebarEntry } from './order.js';

/** What a screen reader hears while a list is moved: names, not ids. */
export function dragAnnouncements(entries: readonly SidebarEntry[]): Announcements {
  const describe = (id: UniqueIdentifier | undefined) => {
    const entry = entries.find((candidate) => candidate.id === id);
    if (entry === undefined) return 'an unknown place';
    return entry.kind === 'group' ? `the group ${entry.group.name}` : entry.collection.name;
  };
  return {
    onDragStart: ({ active }) => `Picked up ${describe(active.id)}.`,
    // Over its own place (as it is picked up) says nothing: "Picked up" stays heard.
    onDragOver: ({ active, over }) =>
      over === null
        ? `${describe(active.id)} is no longer over a place to drop it.`
        : over.id === active.id
          ? undefined
          : `${describe(active.id)} is over ${describe(over.id)}.`,
    onDragEnd: ({ active, over }) =>
      over === null
        ? `${describe(active.id)} was put back.`
        : `${describe(active.id)} was dropped over ${describe(over.id)}.`,
    onDragCancel: ({ active }) => `Moving ${describe(active.id)} was cancelled.`,
  };
}
