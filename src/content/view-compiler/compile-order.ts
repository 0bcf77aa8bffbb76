import { type RawBuilder, sql } from 'kysely';
import type { SortKey } from './definition.js';
import {
  castOf,
  column,
  param,
  propertyJson,
  propertyText,
  type Sql,
  type ValueCast,
} from './targets.js';

/** One ORDER BY key: its expression, direction, how its values travel in a cursor, and whether it can be null. */
export interface SortColumn {
  expr: Sql;
  direction: 'asc' | 'desc';
  cast: ValueCast;
  nullable: boolean;
}

/** Select options sort in their declared order, statuses in theirs. */
export function sortColumn(key: SortKey, statusOrder: readonly string[]): SortColumn {
  const { target, direction } = key;
  if (target.kind === 'attribute') {
    if (target.attribute === 'statusId') {
      return {
        expr: sql`array_position(cast(${[...statusOrder]} as uuid[]), items.status_id)`,
        direction,
        cast: 'integer',
        nullable: true,
      };
    }
    return { expr: column(target.attribute), direction, cast: castOf(target), nullable: false };
  }
  const key_ = target.field.key;
  if (target.valueKind === 'option') {
    const options = (target.field.config.options ?? []).map((option) => option.id);
    return {
      expr: sql`array_position(cast(${options} as text[]), ${propertyText(key_)})`,
      direction,
      cast: 'integer',
      nullable: true,
    };
  }
  if (target.valueKind === 'boolean') {
    return {
      expr: sql`coalesce(${propertyJson(key_)}, 'false'::jsonb)`,
      direction,
      cast: 'jsonb',
      nullable: false,
    };
  }
  return { expr: propertyJson(key_), direction, cast: 'jsonb', nullable: true };
}

/**
 * Ties are broken by manual order, then id, in the direction of the first sort
 * key (a descending sort reverses the whole order), so a descending page reads
 * the same per-key index as an ascending one, backwards.
 */
export function tieDirection(columns: readonly SortColumn[]): 'asc' | 'desc' {
  return columns[0]?.direction ?? 'asc';
}

/**
 * `expr dir, ..., sort_key, id`: every order is total. Nulls come last: a page
 * segment never mixes null and non-null values of the first key (see
 * `pagePlan`), so the first key's nulls placement is the one its index reads
 * (`asc nulls last`, or backwards `desc nulls first`); later keys put nulls last.
 */
export function orderBy(columns: readonly SortColumn[], alias = 'items'): RawBuilder<unknown> {
  const keys = columns.map((column, index) => {
    const expr = alias === 'items' ? column.expr : sql.ref(`${alias}.s${index}`);
    const nulls = index === 0 && column.direction === 'desc' ? 'nulls first' : 'nulls last';
    return sql`${expr} ${sql.raw(column.direction)} ${sql.raw(nulls)}`;
  });
  const ties = sql.raw(tieDirection(columns));
  return sql.join([
    ...keys,
    sql`${sql.ref(`${alias}.sort_key`)} ${ties}`,
    sql`${sql.ref(`${alias}.id`)} ${ties}`,
  ]);
}

/** The values of the last row of a page: one per sort column, then sort_key and id. */
export interface Position {
  values: unknown[];
  sortKey: string;
  id: string;
}

function equals(column: SortColumn, value: unknown): RawBuilder<boolean> {
  return value === null
    ? sql<boolean>`${column.expr} is null`
    : sql<boolean>`${column.expr} = ${param(value, column.cast)}`;
}

function after(column: SortColumn, value: unknown): RawBuilder<boolean> | null {
  if (value === null) return null;
  const op = sql.raw(column.direction === 'asc' ? '>' : '<');
  return sql<boolean>`(${column.expr} ${op} ${param(value, column.cast)} or ${column.expr} is null)`;
}

/** Rows that come after `position` in this order (nulls last, then sort_key and id in the ties' direction). */
export function afterPosition(
  columns: readonly SortColumn[],
  position: Position,
): RawBuilder<boolean> {
  const terms: RawBuilder<boolean>[] = [];
  for (let index = 0; index <= columns.length; index++) {
    const prefix = columns
      .slice(0, index)
      .map((column, at) => equals(column, position.values[at] ?? null));
    const column = columns[index];
    const last =
      column === undefined
        ? sql<boolean>`(items.sort_key, items.id) ${sql.raw(tieDirection(columns) === 'asc' ? '>' : '<')} (${position.sortKey}, cast(${position.id} as uuid))`
        : after(column, position.values[index] ?? null);
    if (last === null) continue;
    terms.push(sql<boolean>`(${sql.join([...prefix, last], sql` and `)})`);
  }
  return terms.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(terms, sql` or `)})`;
}

/**
 * A range condition on the first sort key that an index on it can seek with:
 * implied by `afterPosition` for rows whose first key is not null.
 */
export function leadingBound(
  columns: readonly SortColumn[],
  position: Position | null,
): RawBuilder<boolean> | null {
  const first = columns[0];
  const value = position?.values[0] ?? null;
  if (first === undefined || position === null || value === null) return null;
  const op = sql.raw(first.direction === 'asc' ? '>=' : '<=');
  return sql<boolean>`${first.expr} ${op} ${param(value, first.cast)}`;
}
