import { describe, expect, it } from 'vitest';
import type { Field, Item, Status } from '../../../../api/board.js';
import {
  applyChange,
  boardColumns,
  boardDefinition,
  changeFor,
  groupingOf,
  groupKey,
  isSorted,
} from './grouping.js';

const stamp = '2026-01-01T00:00:00.000Z';
const status = (id: string, name: string, position: number): Status => ({
  id,
  name,
  color: '#000000',
  category: 'unstarted',
  position,
  createdAt: stamp,
  updatedAt: stamp,
});
const priority: Field = {
  id: 'f-priority',
  key: 'priority',
  type: 'select',
  name: 'Priority',
  config: {
    options: [
      { id: 'o-high', label: 'High', color: '#ff0000' },
      { id: 'o-low', label: 'Low', color: '#00ff00' },
    ],
  },
  createdAt: stamp,
  updatedAt: stamp,
};
const urgent: Field = {
  ...priority,
  id: 'f-urgent',
  key: 'urgent',
  type: 'checkbox',
  name: 'Urgent',
  config: {},
};

describe('the board grouping', () => {
  it('groups by status when the view does not group', () => {
    expect(boardDefinition({ sort: [] })).toEqual({ sort: [], groupBy: { attribute: 'statusId' } });
    const grouped = { groupBy: { fieldId: 'f-priority' } };
    expect(boardDefinition(grouped)).toBe(grouped);
    expect(groupingOf({}, [])).toEqual({ kind: 'status' });
    expect(groupingOf(grouped, [priority])).toEqual({ kind: 'select', field: priority });
    expect(groupingOf(grouped, [])).toBeUndefined();
  });

  it('orders status columns by position, whatever order they come in', () => {
    const columns = boardColumns(
      { kind: 'status' },
      [status('s2', 'Done', 2), status('s1', 'Todo', 1)],
      [],
    );
    expect(columns.map((column) => column.name)).toEqual(['Todo', 'Done']);
  });

  it('orders option columns as the field does, values only the cards know next, the empty one last', () => {
    const columns = boardColumns(
      { kind: 'select', field: priority },
      [],
      ['o-high', 'o-removed', null],
    );
    expect(columns.map((column) => [column.key, column.name])).toEqual([
      ['o-high', 'High'],
      ['o-low', 'Low'],
      ['o-removed', 'o-removed'],
      ['null', 'No Priority'],
    ]);
  });

  it('has yes and no columns for a checkbox', () => {
    const columns = boardColumns({ kind: 'checkbox', field: urgent }, [], []);
    expect(columns.map((column) => column.value)).toEqual([true, false]);
  });

  it('writes the status or the property of the column a card moves to', () => {
    expect(changeFor({ kind: 'status' }, 's1')).toEqual({ statusId: 's1' });
    expect(changeFor({ kind: 'select', field: priority }, null)).toEqual({
      properties: { priority: null },
    });
    expect(changeFor({ kind: 'checkbox', field: urgent }, false)).toEqual({
      properties: { urgent: false },
    });
    expect(changeFor({ kind: 'other', field: priority }, 'x')).toBeUndefined();
  });

  it('applies the change to the cached card as the server will', () => {
    const item = { properties: { priority: 'o-low', size: 3 }, statusId: 's1' } as unknown as Item;
    const next = applyChange(item, { properties: { priority: null } });
    expect(next.properties).toEqual({ size: 3 });
    expect(applyChange(item, { statusId: 's2' }).statusId).toBe('s2');
  });

  it('keys groups as the API keys cursors, and knows a sorted view', () => {
    expect([groupKey(null), groupKey(true), groupKey('abc')]).toEqual(['null', 'true', 'abc']);
    expect(isSorted({ sort: [{ attribute: 'number', direction: 'asc' }] })).toBe(true);
    expect(isSorted({})).toBe(false);
  });
});
