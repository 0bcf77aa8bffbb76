import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Field } from '../fields/schemas.js';
import { compileFilter } from './compile-filter.js';
import { afterPosition, orderBy, sortColumn } from './compile-order.js';
import type { DefinitionContext } from './definition.js';
import { parseDefinition } from './parse.js';
import {
  countStatement,
  groupCountsStatement,
  lockSelectionStatement,
  pagePlan,
} from './statements.js';

const db = new Kysely<unknown>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function compiled(builder: RawBuilder<unknown>) {
  const { sql, parameters } = builder.compile(db);
  return { sql: sql.replace(/\s+/g, ' ').trim(), parameters };
}

const STATUS = '0190d6e2-3c4b-7def-8123-000000000001';
const USER = '0190d6e2-3c4b-7def-8123-000000000002';
const NOW = new Date('2026-06-15T12:00:00.000Z');

function field(id: string, key: string, type: Field['type'], options: string[] = []): Field {
  return {
    id,
    key,
    type,
    name: key,
    config:
      options.length > 0
        ? { options: options.map((option) => ({ id: option, label: option, color: '#000000' })) }
        : {},
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
  };
}

const F = {
  text: field('0190d6e2-3c4b-7def-8123-00000000000a', 'note', 'text'),
  number: field('0190d6e2-3c4b-7def-8123-00000000000b', 'points', 'number'),
  select: field('0190d6e2-3c4b-7def-8123-00000000000c', 'stage', 'select', ['s1', 's2']),
  multi: field('0190d6e2-3c4b-7def-8123-00000000000d', 'tags', 'multi_select', ['t1', 't2']),
  person: field('0190d6e2-3c4b-7def-8123-00000000000e', 'owner', 'person'),
  date: field('0190d6e2-3c4b-7def-8123-00000000000f', 'due', 'date'),
  checkbox: field('0190d6e2-3c4b-7def-8123-000000000010', 'done', 'checkbox'),
};

const context: DefinitionContext = {
  fieldsById: new Map(Object.values(F).map((entry) => [entry.id, entry])),
  statusIds: new Set([STATUS]),
};

function where(filter: unknown) {
  return compiled(compileFilter(parseDefinition({ filter }, context).filter, NOW));
}

describe('filter compiler', () => {
  const cases: Array<[string, unknown, string, unknown[]]> = [
    [
      'text eq',
      { fieldId: F.text.id, op: 'eq', value: 'a' },
      `(items.properties -> 'note') = cast($1 as jsonb)`,
      ['"a"'],
    ],
    [
      'text neq',
      { fieldId: F.text.id, op: 'neq', value: 'a' },
      `(items.properties -> 'note') is distinct from cast($1 as jsonb)`,
      ['"a"'],
    ],
    [
      'text in',
      { fieldId: F.text.id, op: 'in', value: ['a', 'b'] },
      `(items.properties -> 'note') = any(cast($1 as jsonb[]))`,
      [['"a"', '"b"']],
    ],
    [
      'text nin',
      { fieldId: F.text.id, op: 'nin', value: ['a'] },
      `not coalesce((items.properties -> 'note') = any(cast($1 as jsonb[])), false)`,
      [['"a"']],
    ],
    [
      'text contains escapes',
      { fieldId: F.text.id, op: 'contains', value: '5%_x' },
      `(items.properties ->> 'note') ilike $1`,
      ['%5\\%\\_x%'],
    ],
    [
      'text startsWith',
      { fieldId: F.text.id, op: 'startsWith', value: 'ab' },
      `(items.properties ->> 'note') ilike $1`,
      ['ab%'],
    ],
    [
      'text isEmpty',
      { fieldId: F.text.id, op: 'isEmpty' },
      `((items.properties -> 'note') is null or (items.properties -> 'note') = '""'::jsonb)`,
      [],
    ],
    [
      'number gt',
      { fieldId: F.number.id, op: 'gt', value: 3 },
      `(items.properties -> 'points') > cast($1 as jsonb)`,
      ['3'],
    ],
    [
      'number lte',
      { fieldId: F.number.id, op: 'lte', value: 2.5 },
      `(items.properties -> 'points') <= cast($1 as jsonb)`,
      ['2.5'],
    ],
    [
      'select in',
      { fieldId: F.select.id, op: 'in', value: ['s1'] },
      `(items.properties -> 'stage') = any(cast($1 as jsonb[]))`,
      [['"s1"']],
    ],
    [
      'multi hasAny',
      { fieldId: F.multi.id, op: 'hasAny', value: ['t1', 't2'] },
      `((items.properties -> 'tags') @> cast($1 as jsonb) or (items.properties -> 'tags') @> cast($2 as jsonb))`,
      ['["t1"]', '["t2"]'],
    ],
    [
      'multi hasAll',
      { fieldId: F.multi.id, op: 'hasAll', value: ['t1', 't2'] },
      `(items.properties -> 'tags') @> cast($1 as jsonb)`,
      ['["t1","t2"]'],
    ],
    [
      'multi hasNone',
      { fieldId: F.multi.id, op: 'hasNone', value: ['t1'] },
      `not coalesce(((items.properties -> 'tags') @> cast($1 as jsonb)), false)`,
      ['["t1"]'],
    ],
    [
      'multi isEmpty',
      { fieldId: F.multi.id, op: 'isEmpty' },
      `((items.properties -> 'tags') is null or (items.properties -> 'tags') = '[]'::jsonb)`,
      [],
    ],
    [
      'person eq',
      { fieldId: F.person.id, op: 'eq', value: USER },
      `(items.properties -> 'owner') = cast($1 as jsonb)`,
      [`"${USER}"`],
    ],
    [
      'date day eq',
      { fieldId: F.date.id, op: 'eq', value: '2026-01-31' },
      `((items.properties -> 'due') >= cast($1 as jsonb) and (items.properties -> 'due') < cast($2 as jsonb))`,
      ['"2026-01-31"', '"2026-02-01"'],
    ],
    [
      'date after day',
      { fieldId: F.date.id, op: 'after', value: '2026-01-31' },
      `(items.properties -> 'due') >= cast($1 as jsonb)`,
      ['"2026-02-01"'],
    ],
    [
      'date before instant',
      { fieldId: F.date.id, op: 'before', value: '2026-01-31T10:00:00+02:00' },
      `(items.properties -> 'due') < cast($1 as jsonb)`,
      ['"2026-01-31T08:00:00.000Z"'],
    ],
    [
      'date withinLast',
      { fieldId: F.date.id, op: 'withinLast', value: { amount: 2, unit: 'weeks' } },
      `((items.properties -> 'due') >= cast($1 as jsonb) and (items.properties -> 'due') < cast($2 as jsonb))`,
      ['"2026-06-01"', '"2026-06-16"'],
    ],
    [
      'checkbox eq true',
      { fieldId: F.checkbox.id, op: 'eq', value: true },
      `(items.properties -> 'done') = 'true'::jsonb`,
      [],
    ],
    [
      'checkbox eq false',
      { fieldId: F.checkbox.id, op: 'eq', value: false },
      `not coalesce((items.properties -> 'done') = 'true'::jsonb, false)`,
      [],
    ],
    [
      'status in',
      { attribute: 'statusId', op: 'in', value: [STATUS] },
      '"items"."status_id" = any(cast($1 as uuid[]))',
      [[STATUS]],
    ],
    [
      'number attribute',
      { attribute: 'number', op: 'gte', value: 10 },
      '"items"."number" >= cast($1 as bigint)',
      [10],
    ],
    [
      'createdAt on day',
      { attribute: 'createdAt', op: 'onOrBefore', value: '2026-01-31' },
      '"items"."created_at" < cast($1 as timestamptz)',
      ['2026-02-01T00:00:00.000Z'],
    ],
    [
      'createdAt withinNext',
      { attribute: 'createdAt', op: 'withinNext', value: { amount: 1, unit: 'months' } },
      '("items"."created_at" >= cast($1 as timestamptz) and "items"."created_at" <= cast($2 as timestamptz))',
      ['2026-06-15T12:00:00.000Z', '2026-07-15T12:00:00.000Z'],
    ],
    ['parent isEmpty', { attribute: 'parentId', op: 'isEmpty' }, '"items"."parent_id" is null', []],
    [
      'title contains',
      { attribute: 'title', op: 'contains', value: 'x' },
      '"items"."title" ilike $1',
      ['%x%'],
    ],
    [
      'search',
      { op: 'search', value: 'rocket launch' },
      `items.id in (select item_search.item_id from item_search where item_search.vector @@ websearch_to_tsquery('simple', $1))`,
      ['rocket launch'],
    ],
  ];
  it.each(cases)('%s', (_name, filter, sql, parameters) => {
    const result = where(filter);
    expect(result.sql).toBe(sql);
    expect(result.parameters).toEqual(parameters);
  });

  it('nests and, or and not, negations treating missing values as false', () => {
    const result = where({
      and: [
        { attribute: 'title', op: 'eq', value: 'a' },
        {
          or: [
            { fieldId: F.number.id, op: 'eq', value: 1 },
            { not: { fieldId: F.select.id, op: 'eq', value: 's2' } },
          ],
        },
      ],
    });
    expect(result.sql).toBe(
      `("items"."title" = cast($1 as text) and ((items.properties -> 'points') = cast($2 as jsonb) or not coalesce((items.properties -> 'stage') = cast($3 as jsonb), false)))`,
    );
    expect(result.parameters).toEqual(['a', '1', '"s2"']);
  });

  it('inlines registry keys as escaped literals, never request text', () => {
    const odd = field('0190d6e2-3c4b-7def-8123-000000000099', "x'; drop table items; --", 'text');
    const parsed = parseDefinition(
      { filter: { fieldId: odd.id, op: 'eq', value: 'v' } },
      { ...context, fieldsById: new Map([[odd.id, odd]]) },
    );
    expect(compiled(compileFilter(parsed.filter, NOW)).sql).toContain(
      `'x''; drop table items; --'`,
    );
  });
});

describe('order and keyset', () => {
  const parsed = parseDefinition(
    {
      sort: [
        { fieldId: F.number.id, direction: 'desc' },
        { fieldId: F.select.id },
        { attribute: 'title' },
      ],
    },
    context,
  );
  const columns = parsed.sort.map((key) => sortColumn(key, [STATUS]));

  it('orders options by declared order, then manual order and id in the first key’s direction', () => {
    // The first key's nulls sit in a segment of their own (pagePlan), so its placement follows its index.
    expect(compiled(orderBy(columns)).sql).toBe(
      `(items.properties -> 'points') desc nulls first, array_position(cast($1 as text[]), (items.properties ->> 'stage')) asc nulls last, "items"."title" asc nulls last, "items"."sort_key" desc, "items"."id" desc`,
    );
    const ascending = parseDefinition({ sort: [{ fieldId: F.number.id }] }, context).sort.map(
      (key) => sortColumn(key, [STATUS]),
    );
    expect(compiled(orderBy(ascending)).sql).toBe(
      `(items.properties -> 'points') asc nulls last, "items"."sort_key" asc, "items"."id" asc`,
    );
  });

  it('continues after a position, with null values placed last', () => {
    const result = compiled(
      afterPosition(columns, { values: [5, null, 'b'], sortKey: 'a0', id: STATUS }),
    );
    expect(result.sql).toContain(
      `((items.properties -> 'points') < cast($1 as jsonb) or (items.properties -> 'points') is null)`,
    );
    expect(result.sql).toContain('array_position(cast($');
    expect(result.sql).toContain(') is null and ("items"."title" > cast($');
    expect(result.sql).toContain('(items.sort_key, items.id) < (');
    expect(result.parameters).toContain('5');
    expect(result.parameters).toContain('a0');
  });
});

describe('statements', () => {
  const scope = { workspaceId: STATUS, collectionId: USER };
  const options = { now: NOW, statusOrder: [STATUS] };

  it('plans a value segment with an index bound and a null segment', () => {
    const definition = parseDefinition({ sort: [{ fieldId: F.number.id }] }, context);
    const plan = pagePlan(scope, definition, {
      ...options,
      limit: 51,
      after: { segment: 'values', position: { values: [7], sortKey: 'a1', id: STATUS } },
    });
    expect(plan.segments.map((segment) => segment.segment)).toEqual(['values', 'nulls']);
    const values = compiled(plan.segments[0]?.statement as RawBuilder<unknown>).sql;
    expect(values).toContain(
      `(items.properties -> 'points') is not null and (items.properties -> 'points') >= cast(`,
    );
    expect(values).toContain('union all');
    expect(values).toContain('join item_collections attachment');
    expect(values).toContain('items.archived_at is null');
    expect(values).toContain('limit 51');
    const nulls = compiled(plan.segments[1]?.statement as RawBuilder<unknown>).sql;
    expect(nulls).toContain(`(items.properties -> 'points') is null`);
  });

  it('continues only in the null segment once there', () => {
    const definition = parseDefinition({ sort: [{ fieldId: F.number.id }] }, context);
    const plan = pagePlan(scope, definition, {
      ...options,
      limit: 10,
      after: { segment: 'nulls', position: { values: [null], sortKey: 'a1', id: STATUS } },
    });
    expect(plan.segments.map((segment) => segment.segment)).toEqual(['nulls']);
  });

  it('seeks by manual order with a row comparison when nothing is sorted', () => {
    const plan = pagePlan(scope, parseDefinition({}, context), {
      ...options,
      limit: 10,
      after: { segment: 'values', position: { values: [], sortKey: 'a5', id: STATUS } },
    });
    expect(compiled(plan.segments[0]?.statement as RawBuilder<unknown>).sql).toContain(
      '((items.sort_key, items.id) > ($',
    );
  });

  it('counts groups, multi-valued ones through their elements', () => {
    const single = compiled(
      groupCountsStatement(
        scope,
        parseDefinition({ groupBy: { attribute: 'statusId' } }, context),
        options,
      ),
    ).sql;
    expect(single).toContain('"items"."status_id" as value, count(*) as cards');
    expect(single).toContain('select cast(value as text) as value, sum(cards)::int as count');
    const multi = compiled(
      groupCountsStatement(
        scope,
        parseDefinition({ groupBy: { fieldId: F.multi.id } }, context),
        options,
      ),
    ).sql;
    expect(multi).toContain('left join lateral jsonb_array_elements_text(');
    const day = compiled(
      groupCountsStatement(
        scope,
        parseDefinition({ groupBy: { fieldId: F.date.id, timeZone: 'Asia/Tokyo' } }, context),
        options,
      ),
    );
    expect(day.sql).toContain('at time zone $');
    expect(day.parameters).toContain('Asia/Tokyo');
  });

  it('counts and locks the selection with the same filter', () => {
    const definition = parseDefinition(
      { filter: { fieldId: F.number.id, op: 'gt', value: 1 } },
      context,
    );
    const filter = `(items.properties -> 'points') > cast(`;
    expect(compiled(countStatement(scope, definition, options)).sql).toContain(filter);
    const lock = compiled(
      lockSelectionStatement(scope, definition, options, sql`items.id, items.title`),
    ).sql;
    expect(lock).toMatch(/^select items\.id, items\.title from items/);
    expect(lock).toContain(filter);
    expect(lock).toContain('for update of items');
  });
});

describe('parse refusals', () => {
  const refusals: Array<[unknown, string]> = [
    [null, 'invalid_definition'],
    [{ filter: [] }, 'invalid_definition'],
    [{ filter: { and: [] } }, 'invalid_definition'],
    [
      { filter: { fieldId: F.text.id, attribute: 'title', op: 'eq', value: 'x' } },
      'invalid_definition',
    ],
    [{ filter: { fieldId: F.text.id, op: 'explode', value: 'x' } }, 'invalid_operator'],
    [{ filter: { fieldId: F.multi.id, op: 'eq', value: 't1' } }, 'invalid_operator'],
    [{ filter: { fieldId: F.checkbox.id, op: 'eq', value: 'yes' } }, 'invalid_value'],
    [{ filter: { fieldId: F.person.id, op: 'eq', value: 'someone' } }, 'invalid_value'],
    [{ filter: { fieldId: F.select.id, op: 'in', value: ['s1', 'zz'] } }, 'unknown_option'],
    [{ filter: { op: 'search', value: ' ' } }, 'invalid_value'],
    [{ sort: [{ attribute: 'parentId' }] }, 'field_not_sortable'],
    [{ sort: [{ attribute: 'title', direction: 'sideways' }] }, 'invalid_definition'],
    [{ groupBy: { fieldId: F.number.id } }, 'field_not_groupable'],
    [{ groupBy: { attribute: 'statusId', timeZone: 'UTC' } }, 'invalid_definition'],
  ];
  it.each(refusals)('refuses %j', (definition, code) => {
    expect(() => parseDefinition(definition, context)).toThrow(
      expect.objectContaining({ status: 400, code }),
    );
  });
});
