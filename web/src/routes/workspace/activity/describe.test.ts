import { describe, expect, it } from 'vitest';
import type { WorkspaceEvent } from '../../../api/events.js';
import { describeEvent, typeLabel } from './describe.js';
import { activitySearch } from './search.js';

const names = {
  fieldByKey: new Map([['points', 'Points']]),
  collectionById: new Map([['list-2', 'Roadmap']]),
  cardById: new Map([['card-1', 'Looked up']]),
};

function event(type: WorkspaceEvent['type'], changes: WorkspaceEvent['changes'], id = 'card-1') {
  const kind = type.split('.')[0] ?? '';
  return {
    id: 'e',
    occurredAt: '2026-01-01T00:00:00Z',
    type,
    resource: { kind, id },
    actor: { kind: 'user', label: 'Ada' },
    changes,
    batchId: null,
    cause: 'edit',
  } satisfies WorkspaceEvent;
}

describe('an event in words', () => {
  it('names the card from the event when it carries the title, else from the lookup', () => {
    expect(
      describeEvent(event('item.created', { title: { before: null, after: 'Ship it' } }), names),
    ).toEqual({
      actor: 'Ada',
      action: 'created',
      thing: 'the card',
      name: 'Ship it',
      detail: undefined,
    });
    expect(describeEvent(event('item.moved', {}), names).name).toBe('Looked up');
    expect(
      describeEvent(event('item.deleted', { title: { before: 'Gone', after: null } }, 'x'), names)
        .name,
    ).toBe('Gone');
    expect(describeEvent(event('item.updated', {}, 'unknown'), names).name).toBeUndefined();
  });

  it('says what changed, with field names from the registry', () => {
    const sentence = describeEvent(
      event('item.updated', {
        statusId: { before: 'a', after: 'b' },
        'properties.points': { before: 1, after: 2 },
        'properties.gone': { before: 1, after: null },
        title: { before: 'Old', after: 'New' },
      }),
      names,
    );
    expect(sentence.action).toBe('changed');
    expect(sentence.detail).toBe('status, Points, gone and title');
    expect(sentence.name).toBe('New');
  });

  it('says archived and restored, and which list a card joined or left', () => {
    expect(
      describeEvent(event('item.updated', { archivedAt: { before: null, after: 'x' } }), names),
    ).toMatchObject({ action: 'archived', detail: undefined });
    expect(
      describeEvent(event('item.updated', { archivedAt: { before: 'x', after: null } }), names)
        .action,
    ).toBe('restored');
    expect(
      describeEvent(
        event('item.attached', {
          collectionIds: { before: ['list-1'], after: ['list-1', 'list-2'] },
        }),
        names,
      ),
    ).toMatchObject({ action: 'added', detail: 'to Roadmap' });
    expect(
      describeEvent(
        event('item.detached', {
          collectionIds: { before: ['list-1', 'list-2'], after: ['list-1'] },
        }),
        names,
      ),
    ).toMatchObject({ action: 'removed', detail: 'from Roadmap' });
  });

  it('names lists from the registry and labels types for the filter', () => {
    expect(describeEvent(event('collection.updated', {}, 'list-2'), names)).toMatchObject({
      thing: 'the list',
      name: 'Roadmap',
    });
    expect(typeLabel('item.updated')).toBe('Card changed');
    expect(typeLabel('collection_group.deleted')).toBe('Sidebar group deleted');
  });
});

describe('the activity address', () => {
  it('keeps known filters and drops the rest', () => {
    const batch = '0190a8e2-7c4d-7a00-8000-000000000001';
    expect(activitySearch({ type: 'item.created', cause: 'import', batch, other: 'x' })).toEqual({
      type: 'item.created',
      cause: 'import',
      batch,
    });
    expect(activitySearch({ type: 'item.*', cause: 'bulk', batch: 'not-a-uuid' })).toEqual({});
  });
});
