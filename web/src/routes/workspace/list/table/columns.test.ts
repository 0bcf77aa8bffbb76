import { describe, expect, it } from 'vitest';
import type { Collection } from '../../../../api/lists.js';
import type { Field } from '../../../../api/registry.js';
import { columnChoices, moveColumn, toDisplayColumns, visibleColumns } from './columns.js';

const at = '2026-01-01T00:00:00Z';
const field = (id: string): Field => ({
  id,
  key: id,
  type: 'text',
  name: `F ${id}`,
  config: {},
  createdAt: at,
  updatedAt: at,
});
const fields = [field('a'), field('b'), field('c')];
const collection: Collection = {
  id: 'l',
  name: 'L',
  keyPrefix: 'L',
  description: null,
  icon: null,
  fieldIds: ['b', 'gone'],
  groupId: null,
  position: 0,
  createdAt: at,
  updatedAt: at,
};

describe('the table’s columns', () => {
  it('without a display: the status and the list’s fields shown, the rest offered hidden', () => {
    const choices = columnChoices({}, collection, fields);
    expect(visibleColumns(choices).map((choice) => choice.id)).toEqual([
      'attribute:statusId',
      'field:b',
    ]);
    expect(choices.filter((choice) => choice.hidden).map((choice) => choice.id)).toEqual([
      'attribute:createdBy',
      'attribute:createdAt',
      'attribute:updatedAt',
      'field:a',
      'field:c',
    ]);
  });

  it('follows the display’s order and hidden columns, and writes them back', () => {
    const display = {
      columns: [
        { fieldId: 'c', width: 90 },
        { attribute: 'statusId' as const, hidden: true },
        { fieldId: 'gone' },
      ],
    };
    const choices = columnChoices(display, collection, fields);
    expect(visibleColumns(choices).map((choice) => choice.id)).toEqual(['field:c']);
    const moved = moveColumn(choices, 1, -1);
    expect(toDisplayColumns(moved).slice(0, 2)).toEqual([
      { attribute: 'statusId', hidden: true },
      { fieldId: 'c', width: 90 },
    ]);
    expect(moveColumn(choices, 0, -1)).toEqual(choices);
  });
});
