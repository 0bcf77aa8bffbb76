import { describe, expect, it } from 'vitest';
import type { Field } from '../../../../api/registry.js';
import {
  conditionsOf,
  EMPTY,
  fromDefinition,
  isComplete,
  sameDefinition,
  toDefinition,
} from './definition.js';
import {
  addCondition,
  addGroup,
  changeCondition,
  changeGroupJoin,
  removeCondition,
  removeEntry,
} from './filter.js';
import { kindOf, operatorsFor, targetFromToken, targetToken } from './operators.js';
import { addSort, changeSort, removeSort } from './sort.js';

function field(id: string, type: Field['type']): Field {
  return {
    id,
    key: `key_${id}`,
    type,
    name: `Field ${id}`,
    config: {},
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
}

const fields = [field('size', 'select'), field('tags', 'multi_select'), field('due', 'date')];

describe('the operators offered per field type', () => {
  it('follows the compiler: options have hasAny, a status no isEmpty, a checkbox eq and neq', () => {
    expect(operatorsFor(kindOf({ fieldId: 'tags' }, fields))).toContain('hasAny');
    expect(operatorsFor(kindOf({ fieldId: 'size' }, fields))).not.toContain('hasAny');
    expect(operatorsFor(kindOf({ attribute: 'statusId' }, fields))).not.toContain('isEmpty');
    expect(operatorsFor(kindOf({ attribute: 'title' }, fields))[0]).toBe('contains');
    expect(operatorsFor(kindOf({ fieldId: 'gone' }, fields))).toEqual([]);
  });

  it('writes a target as a token and reads it back', () => {
    expect(targetFromToken(targetToken({ fieldId: 'size' }))).toEqual({ fieldId: 'size' });
    expect(targetFromToken(targetToken({ attribute: 'title' }))).toEqual({ attribute: 'title' });
    expect(targetFromToken('attribute:password')).toBeUndefined();
  });
});

describe('editing conditions', () => {
  it('adds a condition with the first valid operator and an empty value, then removes it', () => {
    const one = addCondition(EMPTY, { fieldId: 'size' }, fields);
    expect(one.entries).toEqual([{ target: { fieldId: 'size' }, op: 'in', value: [] }]);
    const [added] = conditionsOf(one);
    expect(added !== undefined && isComplete(added, fields)).toBe(false);
    expect(removeCondition(one, 0).entries).toEqual([]);
  });

  it('keeps a value while its shape stays, resets it when the operator or target changes it', () => {
    let state = addCondition(EMPTY, { attribute: 'title' }, fields);
    state = changeCondition(state, 0, { value: 'draft' }, fields);
    state = changeCondition(state, 0, { op: 'startsWith' }, fields);
    expect(conditionsOf(state)[0]).toEqual({
      target: { attribute: 'title' },
      op: 'startsWith',
      value: 'draft',
    });
    state = changeCondition(state, 0, { op: 'isEmpty' }, fields);
    expect(conditionsOf(state)[0]?.value).toBeNull();
    // A date has no isEmpty-to-contains path: a new target with its own operator and value.
    state = changeCondition(state, 0, { target: { fieldId: 'due' } }, fields);
    expect(conditionsOf(state)[0]).toEqual({
      target: { fieldId: 'due' },
      op: 'isEmpty',
      value: null,
    });
    state = changeCondition(state, 0, { target: { fieldId: 'tags' } }, fields);
    expect(conditionsOf(state)[0]).toEqual({
      target: { fieldId: 'tags' },
      op: 'isEmpty',
      value: null,
    });
    state = changeCondition(state, 0, { op: 'hasAll' }, fields);
    expect(conditionsOf(state)[0]?.value).toEqual([]);
    state = changeCondition(state, 0, { target: { attribute: 'statusId' } }, fields);
    expect(conditionsOf(state)[0]).toEqual({
      target: { attribute: 'statusId' },
      op: 'in',
      value: [],
    });
  });
});

describe('filter groups', () => {
  const title = (value: string) => ({ attribute: 'title', op: 'contains', value });
  const size = (value: string) => ({ fieldId: 'size', op: 'in', value: [value] });

  it('adds a group joined the other way, with a condition; edits and removes inside it', () => {
    let state = addCondition(EMPTY, { attribute: 'title' }, fields);
    state = addGroup(state, { attribute: 'title' }, fields);
    expect(state.entries[1]).toEqual({
      join: 'or',
      conditions: [{ target: { attribute: 'title' }, op: 'contains', value: '' }],
    });
    state = addCondition(state, { fieldId: 'size' }, fields, 1);
    state = changeCondition(state, [1, 0], { value: 'launch' }, fields);
    state = changeCondition(state, [1, 1], { value: ['big'] }, fields);
    state = changeCondition(state, 0, { value: 'alpha' }, fields);
    expect(toDefinition(state, fields)).toEqual({
      filter: { and: [title('alpha'), { or: [title('launch'), size('big')] }] },
    });
    state = changeGroupJoin(state, 1, 'and');
    state = removeCondition(state, [1, 0]);
    expect(toDefinition(state, fields)).toEqual({
      filter: { and: [title('alpha'), { and: [size('big')] }] },
    });
    // A place that is not a group, or a group where a condition is meant, changes nothing.
    expect(addCondition(state, { attribute: 'title' }, fields, 0)).toEqual(state);
    expect(changeCondition(state, 1, { value: 'x' }, fields)).toEqual(state);
    expect(removeEntry(state, 1).entries).toEqual([state.entries[0]]);
  });

  it('leaves out incomplete conditions and groups left empty, and a filter left with nothing', () => {
    let state = addGroup(EMPTY, { attribute: 'title' }, fields);
    state = addGroup(state, { fieldId: 'size' }, fields);
    state = changeCondition(state, [1, 0], { value: ['big'] }, fields);
    expect(toDefinition(state, fields)).toEqual({ filter: { and: [{ or: [size('big')] }] } });
    state = removeCondition(state, [1, 0]);
    // The emptied group stays on screen, and is not written.
    expect(state.entries[1]).toEqual({ join: 'or', conditions: [] });
    expect(toDefinition(state, fields)).toEqual({});
  });

  it('reads groups back as written, both joins, each with its own', () => {
    const definitions = [
      {
        filter: {
          and: [{ attribute: 'statusId', op: 'eq', value: 's1' }, { or: [title('a'), size('b')] }],
        },
      },
      { filter: { or: [{ and: [title('a'), size('b')] }, { and: [title('c')] }] } },
      { filter: { and: [{ or: [title('a')] }] }, groupBy: { attribute: 'statusId' } },
    ];
    for (const definition of definitions) {
      const state = fromDefinition(definition);
      expect(state).toBeDefined();
      if (state === undefined) continue;
      expect(sameDefinition(toDefinition(state, fields), definition)).toBe(true);
    }
    expect(fromDefinition(definitions[1])?.entries).toEqual([
      {
        join: 'and',
        conditions: [
          { target: { attribute: 'title' }, op: 'contains', value: 'a' },
          { target: { fieldId: 'size' }, op: 'in', value: ['b'] },
        ],
      },
      { join: 'and', conditions: [{ target: { attribute: 'title' }, op: 'contains', value: 'c' }] },
    ]);
  });

  it('refuses what it cannot show: groups within groups, `not` or a search in a group, empty groups', () => {
    const refused = [
      { and: [{ or: [title('a'), { and: [title('b'), size('c')] }] }] },
      { or: [title('a'), { and: [{ not: title('b') }] }] },
      { and: [{ or: [{ op: 'search', value: 'x' }] }] },
      { and: [{ or: [] }] },
      { and: [{ or: [title('a')], and: [title('b')] }] },
      { not: { or: [title('a')] } },
    ];
    for (const filter of refused) expect(fromDefinition({ filter })).toBeUndefined();
  });
});

describe('to and from a view definition', () => {
  it('writes complete conditions only, joined as chosen, with sort and grouping', () => {
    let state = addCondition(EMPTY, { fieldId: 'size' }, fields);
    state = changeCondition(state, 0, { value: ['opt-1'] }, fields);
    state = addCondition(state, { attribute: 'title' }, fields);
    state = { ...state, join: 'or' };
    state = addSort(state, { attribute: 'number' });
    state = addSort(state, { attribute: 'number' });
    state = changeSort(state, 0, { direction: 'desc' });
    state = { ...state, groupBy: { attribute: 'statusId' } };
    const definition = toDefinition(state, fields);
    expect(definition).toEqual({
      filter: { or: [{ fieldId: 'size', op: 'in', value: ['opt-1'] }] },
      sort: [{ attribute: 'number', direction: 'desc' }],
      groupBy: { attribute: 'statusId' },
    });
    expect(fromDefinition(definition)).toEqual({
      ...state,
      entries: [state.entries[0]],
    });
    expect(toDefinition(removeSort({ ...state, groupBy: null, entries: [] }, 0), fields)).toEqual(
      {},
    );
  });

  it('gives a date grouping the browser’s time zone, and leaves out the value of isEmpty', () => {
    const state = {
      ...addCondition(EMPTY, { fieldId: 'due' }, fields),
      groupBy: { fieldId: 'due' },
    };
    const withEmpty = changeCondition(state, 0, { op: 'isEmpty' }, fields);
    const definition = toDefinition(withEmpty, fields);
    expect(definition.filter).toEqual({ and: [{ fieldId: 'due', op: 'isEmpty' }] });
    expect(definition.groupBy).toMatchObject({ fieldId: 'due', timeZone: expect.any(String) });
  });

  it('reads a single condition as a filter, and refuses `not` and a search', () => {
    expect(fromDefinition({ filter: { attribute: 'title', op: 'contains', value: 'x' } })).toEqual({
      ...EMPTY,
      entries: [{ target: { attribute: 'title' }, op: 'contains', value: 'x' }],
    });
    expect(fromDefinition({})).toEqual(EMPTY);
    expect(fromDefinition({ filter: { not: { attribute: 'title', op: 'eq' } } })).toBeUndefined();
    expect(fromDefinition({ filter: { op: 'search', value: 'x' } })).toBeUndefined();
    expect(fromDefinition('nonsense')).toBeUndefined();
  });

  it('compares definitions whatever their key order', () => {
    expect(
      sameDefinition({ sort: [], filter: { and: [] } }, { filter: { and: [] }, sort: [] }),
    ).toBe(true);
    expect(sameDefinition(undefined, {})).toBe(true);
    expect(sameDefinition({ sort: [{ attribute: 'number' }] }, {})).toBe(false);
  });
});
