import { describe, expect, it } from 'vitest';
import type { Field, Status } from '../../../../api/registry.js';
import { bulkChanges, countOfMismatch } from './changes.js';

const at = '2026-01-01T00:00:00Z';
const status: Status = {
  id: 's1',
  name: 'Done',
  color: '#0a0',
  category: 'completed',
  position: 0,
  createdAt: at,
  updatedAt: at,
};
const field = (id: string, type: Field['type'], config: Field['config'] = {}): Field => ({
  id,
  key: `k_${id}`,
  type,
  name: `Size ${id}`,
  config,
  createdAt: at,
  updatedAt: at,
});

describe('bulk changes', () => {
  const changes = bulkChanges(
    [status],
    [
      field('a', 'select', { options: [{ id: 'o1', label: 'S', color: '#f00' }] }),
      field('b', 'checkbox'),
      field('c', 'text'),
    ],
    [],
  );

  it('offers the status, select and checkbox fields and archiving, not text', () => {
    expect(changes.map((change) => change.id)).toEqual(['status', 'field:a', 'field:b', 'archive']);
  });

  it('writes the patch of each: by field key, clearing with null', () => {
    const [statusChange, select, checkbox, archive] = changes;
    expect(statusChange?.patch('s1')).toEqual({ statusId: 's1' });
    expect(select?.patch('o1')).toEqual({ properties: { k_a: 'o1' } });
    expect(select?.patch('')).toEqual({ properties: { k_a: null } });
    expect(checkbox?.patch('false')).toEqual({ properties: { k_b: false } });
    expect(archive?.patch('true')).toEqual({ archived: true });
  });

  it('reads the live count of a stale-count refusal', () => {
    expect(countOfMismatch({ expected: 3, count: 5 })).toBe(5);
    expect(countOfMismatch(undefined)).toBeUndefined();
  });
});
