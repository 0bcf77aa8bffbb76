import { type RawBuilder, sql } from 'kysely';
import { PREPARED } from '../../db/prepared.js';
import type { ItemRow } from '../items/repository.js';
import { type Condition, compileFilter } from './compile-filter.js';
import {
  afterPosition,
  leadingBound,
  orderBy,
  type SortColumn,
  sortColumn,
} from './compile-order.js';
import type { CursorState, Segment } from './cursor.js';
import type { ParsedDefinition } from './definition.js';
import { groupArray, groupExpression, isMultiValued } from './group.js';

/**
 * Statements over one list: the cards whose home it is and those attached to
 * it, never archived ones. Pure: builds SQL, runs nothing. The home branch and
 * the secondary-list branch are ordered and limited separately (so an index
 * on the home list can drive the page) and merged by the outer query.
 */

export interface ListScope {
  workspaceId: string;
  collectionId: string;
}

export interface CompileOptions {
  now: Date;
  /** Status ids in their order (sorting by status). */
  statusOrder: readonly string[];
}

export interface PageRow extends ItemRow {
  [sortValue: `s${number}`]: unknown;
}

const ITEM_COLUMNS = sql.raw(
  'items.id, items.collection_id, items.number, items.title, items.status_id, items.parent_id, items.properties, ' +
    'items.icon, items.sort_key, items.archived_at, items.created_by, items.external_source, items.external_id, ' +
    'items.created_at, items.updated_at',
);

/**
 * The same select over the home list and over the list's attached cards;
 * `join` follows `items`. The list has been checked to belong to the workspace
 * and its cards always belong to the list's workspace, so no workspace
 * predicate is needed (one would keep group counts from being index-only).
 */
function branches(
  scope: ListScope,
  where: Condition,
  select: RawBuilder<unknown>,
  tail: RawBuilder<unknown>,
  join: RawBuilder<unknown> = sql``,
) {
  const home = sql`select ${select} from items ${join}
    where items.collection_id = ${scope.collectionId} and items.archived_at is null and ${where} ${tail}`;
  const attached = sql`select ${select} from items
    join item_collections attachment on attachment.item_id = items.id and attachment.collection_id = ${scope.collectionId}
    ${join}
    where items.archived_at is null and ${where} ${tail}`;
  return { home, attached };
}

export interface PagePlan {
  columns: SortColumn[];
  /** Run in order until the page is full; each answers rows after the cursor in its segment. */
  segments: Array<{ segment: Segment; statement: RawBuilder<PageRow> }>;
}

/** The keyset page statements of a definition (plus an extra condition, such as a group). */
export function pagePlan(
  scope: ListScope,
  definition: ParsedDefinition,
  options: CompileOptions & { after: CursorState | null; limit: number; extra?: Condition },
): PagePlan {
  const columns = definition.sort.map((key) => sortColumn(key, options.statusOrder));
  const filter = compileFilter(definition.filter, options.now);
  const base =
    options.extra === undefined ? filter : sql<boolean>`(${filter} and ${options.extra})`;
  const first = columns[0];
  const after = options.after;
  const sortValues = columns.map((column, index) => sql`${column.expr} as ${sql.ref(`s${index}`)}`);
  const select = sql.join([ITEM_COLUMNS, ...sortValues]);
  const limit = sql.lit(options.limit);
  const statement = (
    segment: Segment,
    conditions: Condition[],
  ): { segment: Segment; statement: RawBuilder<PageRow> } => {
    const where = sql<boolean>`${sql.join([base, ...conditions], sql` and `)}`;
    const { home, attached } = branches(
      scope,
      where,
      select,
      sql`order by ${orderBy(columns)} limit ${limit}`,
    );
    return {
      segment,
      statement: sql<PageRow>`${PREPARED} select page.*, lists.key_prefix,
          coalesce((select array_agg(extra.collection_id order by extra.created_at, extra.collection_id)
                    from item_collections extra where extra.item_id = page.id), '{}') as collection_ids
        from ((${home}) union all (${attached})) as page
        join collections lists on lists.id = page.collection_id
        order by ${orderBy(columns, 'page')} limit ${limit}`,
    };
  };
  if (first === undefined || !first.nullable) {
    const conditions: Condition[] = [];
    const bound = leadingBound(columns, after?.position ?? null);
    if (bound !== null) conditions.push(bound);
    if (after !== null) conditions.push(afterPosition(columns, after.position));
    return { columns, segments: [statement('values', conditions)] };
  }
  const nulls = sql<boolean>`${first.expr} is null`;
  if (after?.segment === 'nulls') {
    return {
      columns,
      segments: [statement('nulls', [nulls, afterPosition(columns, after.position)])],
    };
  }
  const values: Condition[] = [sql<boolean>`${first.expr} is not null`];
  const bound = leadingBound(columns, after?.position ?? null);
  if (bound !== null) values.push(bound);
  if (after !== null) values.push(afterPosition(columns, after.position));
  return { columns, segments: [statement('values', values), statement('nulls', [nulls])] };
}

/** Cards per group value (null: the empty group); a multi-valued card counts in each of its groups. */
export function groupCountsStatement(
  scope: ListScope,
  definition: ParsedDefinition,
  options: CompileOptions,
): RawBuilder<{ value: string | null; count: number }> {
  const group = definition.groupBy;
  if (group === null) throw new Error('group counts need a groupBy');
  const filter = compileFilter(definition.filter, options.now);
  const multi = isMultiValued(group);
  const value = multi ? sql`element.value` : groupExpression(group);
  const join = multi
    ? sql`left join lateral jsonb_array_elements_text(${groupArray(group)}) as element(value) on true`
    : sql``;
  const { home, attached } = branches(
    scope,
    filter,
    sql`${value} as value, count(*) as cards`,
    sql`group by 1`,
    join,
  );
  return sql`${PREPARED} select cast(value as text) as value, sum(cards)::int as count
    from ((${home}) union all (${attached})) as counts group by value`;
}
/** Value kinds whose values `item_values` holds (select, multi-select, person, multi-person fields). */
const NARROW_KINDS: ReadonlySet<string> = new Set(['option', 'options', 'person', 'persons']);

/**
 * Counts per value from the narrow `item_values` table (a small index, no card
 * rows read) when the definition has no filter and groups by a field it
 * holds in full (not one still `filling`); null otherwise. Same answer as `groupCountsStatement`: a card with
 * no value is one null row, a multi-valued card one row per distinct value.
 */
export function narrowCountsStatement(
  scope: ListScope,
  definition: ParsedDefinition,
  filling: ReadonlySet<string>,
): RawBuilder<{ value: string | null; count: number }> | null {
  const target = definition.groupBy?.target;
  if (definition.filter !== null || target?.kind !== 'field') return null;
  if (!NARROW_KINDS.has(target.valueKind) || filling.has(target.field.id)) return null;
  const field = target.field.id;
  return sql`${PREPARED} select value, sum(cards)::int as count from (
      (select v.value, count(*) as cards from item_values v
       where v.collection_id = ${scope.collectionId} and v.field_id = ${field} group by v.value)
      union all
      (select v.value, count(*) as cards from item_collections attachment
       join item_values v on v.item_id = attachment.item_id and v.field_id = ${field}
       where attachment.collection_id = ${scope.collectionId} group by v.value)
    ) as counts group by value`;
}

/** How many cards the filter selects now. */
export function countStatement(
  scope: ListScope,
  definition: ParsedDefinition,
  options: CompileOptions,
): RawBuilder<{ count: number }> {
  const filter = compileFilter(definition.filter, options.now);
  const { home, attached } = branches(scope, filter, sql`count(*) as cards`, sql``);
  return sql`select (coalesce((${home}), 0) + coalesce((${attached}), 0))::int as count`;
}

/** The ids the filter selects, locked for the rest of the transaction (bulk edits). */
export function lockSelectionStatement<Row extends { id: string }>(
  scope: ListScope,
  definition: ParsedDefinition,
  options: CompileOptions,
  columns: RawBuilder<unknown>,
): RawBuilder<Row> {
  const filter = compileFilter(definition.filter, options.now);
  const { home, attached } = branches(scope, filter, sql`items.id`, sql``);
  return sql`select ${columns} from items
    where items.id in ((${home}) union all (${attached}))
      and items.archived_at is null and ${filter}
    order by items.id
    for update of items`;
}
