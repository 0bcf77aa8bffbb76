import { describe, expect, it } from 'vitest';
import {
  InvalidationBatch,
  isLiveEvent,
  keysForEvent,
  type LiveEvent,
  mergeKeys,
  type QueryKeyPrefix,
} from './invalidations.js';

const WS = 'w1';
const event = (type: string, kind = type.split('.')[0] ?? '', id = 'r1'): LiveEvent => ({
  id: `e-${type}`,
  type,
  resource: { kind, id },
});

describe('keysForEvent', () => {
  it('refreshes the lists, the open cards and the overview for a card', () => {
    expect(keysForEvent(WS, event('item.updated'))).toEqual([
      ['ws', WS, 'items'],
      ['ws', WS, 'item'],
      ['ws', WS, 'overview'],
      ['ws', WS, 'events'],
    ]);
  });

  it('refreshes the sidebar for a list or a group, and views for a view', () => {
    expect(keysForEvent(WS, event('collection.created'))).toContainEqual(['ws', WS, 'collections']);
    expect(keysForEvent(WS, event('collection_group.updated'))).toEqual([
      ['ws', WS, 'groups'],
      ['ws', WS, 'collections'],
      ['ws', WS, 'events'],
    ]);
    expect(keysForEvent(WS, event('view.deleted'))).toEqual([
      ['ws', WS, 'views'],
      ['ws', WS, 'events'],
    ]);
  });

  it('refreshes the cards that show a field or a status', () => {
    for (const type of ['field.updated', 'status.deleted']) {
      const keys = keysForEvent(WS, event(type));
      expect(keys).toContainEqual(['ws', WS, 'items']);
      expect(keys).toContainEqual(['ws', WS, 'item']);
    }
  });

  it('refreshes the list of workspaces when the workspace changes', () => {
    expect(keysForEvent(WS, event('workspace.updated'))).toEqual([
      ['ws', WS, 'overview'],
      ['ws', WS, 'events'],
      ['workspaces'],
    ]);
  });

  it('refreshes the whole workspace for a type it does not know', () => {
    expect(keysForEvent(WS, event('member.added', 'member'))).toEqual([['ws', WS], ['workspaces']]);
  });
});

describe('mergeKeys', () => {
  it('keeps each prefix once and drops those a shorter one covers', () => {
    expect(
      mergeKeys([
        ['ws', WS, 'items', 'c1'],
        ['ws', WS, 'items'],
        ['ws', WS, 'items'],
        ['workspaces'],
        ['ws', WS, 'item', 'ENG-1'],
      ]),
    ).toEqual([['workspaces'], ['ws', WS, 'items'], ['ws', WS, 'item', 'ENG-1']]);
    expect(
      mergeKeys([
        ['ws', WS, 'events'],
        ['ws', WS],
      ]),
    ).toEqual([['ws', WS]]);
  });
});

describe('InvalidationBatch', () => {
  function batch() {
    const flushed: QueryKeyPrefix[][] = [];
    const timers: Array<() => void> = [];
    const batcher = new InvalidationBatch(
      (prefixes) => flushed.push(prefixes),
      (run) => {
        timers.push(run);
        return () => {};
      },
    );
    return { batcher, flushed, timers };
  }

  it('turns a bulk edit of 5,000 cards into one invalidation of four prefixes', () => {
    const { batcher, flushed, timers } = batch();
    for (let index = 0; index < 5000; index++) {
      batcher.add(keysForEvent(WS, event('item.updated', 'item', `card-${index}`)));
    }
    expect(timers).toHaveLength(1);
    expect(flushed).toEqual([]);
    timers[0]?.();
    expect(flushed).toHaveLength(1);
    expect(flushed[0]).toHaveLength(4);
  });

  it('starts a new batch after a flush, and flushes nothing when nothing came', () => {
    const { batcher, flushed, timers } = batch();
    batcher.run();
    expect(flushed).toEqual([]);
    batcher.add(keysForEvent(WS, event('view.created')));
    timers[0]?.();
    batcher.add(keysForEvent(WS, event('workspace.updated')));
    expect(timers).toHaveLength(2);
    timers[1]?.();
    expect(flushed).toHaveLength(2);
    expect(flushed[1]).toContainEqual(['workspaces']);
  });

  it('drops what is pending when disposed', () => {
    const { batcher, flushed } = batch();
    batcher.add(keysForEvent(WS, event('item.created')));
    batcher.dispose();
    batcher.run();
    expect(flushed).toEqual([]);
  });
});

describe('isLiveEvent', () => {
  it('accepts an event of the log and nothing else', () => {
    expect(isLiveEvent(event('item.created'))).toBe(true);
    expect(isLiveEvent({ cursor: 'x' })).toBe(false);
    expect(isLiveEvent({ id: 'x', type: 'item.created', resource: null })).toBe(false);
    expect(isLiveEvent(null)).toBe(false);
  });
});
