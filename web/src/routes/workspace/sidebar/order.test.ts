import { describe, expect, it } from 'vitest';
import type { Collection, CollectionGroup } from '../../../api/lists.js';
import { moveList, reorderBody, sidebarEntries } from './order.js';

const at = '2026-01-01T00:00:00Z';
const list = (id: string, position: number, groupId: string | null = null): Collection => ({
  id,
  name: id,
  keyPrefix: id.toUpperCase(),
  description: null,
  icon: null,
  fieldIds: [],
  groupId,
  position,
  createdAt: at,
  updatedAt: at,
});
const group = (id: string, position: number): CollectionGroup => ({
  id,
  name: id,
  position,
  createdAt: at,
  updatedAt: at,
});

const lists = [list('b', 1), list('a', 0), list('c', 0, 'g1'), list('d', 0, 'gone')];
const groups = [group('g2', 1), group('g1', 0)];

describe('the sidebar sequence', () => {
  it('puts lists without a (known) group first, then each group with its lists, by position', () => {
    expect(sidebarEntries(lists, groups).map((entry) => entry.id)).toEqual([
      'a',
      'd',
      'b',
      'group:g1',
      'c',
      'group:g2',
    ]);
  });

  it('moves a list within the ungrouped lists and into a group, and writes every list with its group', () => {
    const entries = sidebarEntries(lists, groups);
    const swapped = moveList(entries, 'b', 'a');
    expect(swapped?.map((entry) => entry.id).slice(0, 3)).toEqual(['b', 'a', 'd']);
    // Dropped on the last group's header from above: it lands under it, in that group.
    const intoG2 = moveList(entries, 'a', 'group:g2');
    expect(intoG2 && reorderBody(intoG2)).toEqual({
      collections: [
        { id: 'd', groupId: null },
        { id: 'b', groupId: null },
        { id: 'c', groupId: 'g1' },
        { id: 'a', groupId: 'g2' },
      ],
    });
    // Dropped on g1's header from below: above it, out of the group.
    const outOfG1 = moveList(entries, 'c', 'group:g1');
    expect(outOfG1 && reorderBody(outOfG1).collections.at(-1)).toEqual({ id: 'c', groupId: null });
  });

  it('never moves a group header, nor onto itself', () => {
    const entries = sidebarEntries(lists, groups);
    expect(moveList(entries, 'group:g1', 'a')).toBeUndefined();
    expect(moveList(entries, 'a', 'a')).toBeUndefined();
    expect(moveList(entries, 'a', 'nowhere')).toBeUndefined();
  });
});
