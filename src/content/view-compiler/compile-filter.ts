import { type RawBuilder, sql } from 'kysely';
import { likePattern } from '../../db/like.js';
import { dayOf, isDayOnly, nextDay, shift } from './dates.js';
import type { ConditionValue, FilterNode, Operator, RelativeRange, Target } from './definition.js';
import {
  castOf,
  column,
  jsonValue,
  param,
  propertyJson,
  propertyText,
  type Sql,
  valueExpression,
} from './targets.js';

export type Condition = RawBuilder<boolean>;

const TRUE: Condition = sql<boolean>`true`;
const FALSE: Condition = sql<boolean>`false`;

function not(condition: Sql): Condition {
  return sql<boolean>`not coalesce(${condition}, false)`;
}

/** An array parameter of the target's type, for `= any(...)`. */
function arrayParam(values: readonly unknown[], target: Target): Sql {
  const cast = castOf(target);
  if (cast === 'jsonb')
    return sql`cast(${values.map((value) => JSON.stringify(value))} as jsonb[])`;
  return sql`cast(${[...values]} as ${sql.raw(cast)}[])`;
}

function scalarComparison(target: Target, op: Operator, value: ConditionValue): Condition {
  const expr = valueExpression(target);
  const cast = castOf(target);
  switch (op) {
    case 'eq':
      return sql<boolean>`${expr} = ${param(value, cast)}`;
    case 'neq':
      return sql<boolean>`${expr} is distinct from ${param(value, cast)}`;
    case 'in':
      return sql<boolean>`${expr} = any(${arrayParam(value as unknown[], target)})`;
    case 'nin':
      return not(sql`${expr} = any(${arrayParam(value as unknown[], target)})`);
    case 'lt':
      return sql<boolean>`${expr} < ${param(value, cast)}`;
    case 'lte':
      return sql<boolean>`${expr} <= ${param(value, cast)}`;
    case 'gt':
      return sql<boolean>`${expr} > ${param(value, cast)}`;
    case 'gte':
      return sql<boolean>`${expr} >= ${param(value, cast)}`;
    default:
      throw new Error(`operator ${op} is not a scalar comparison`);
  }
}

function textTarget(target: Target): Sql {
  return target.kind === 'field' ? propertyText(target.field.key) : column(target.attribute);
}

function isEmpty(target: Target): Condition {
  if (target.kind === 'attribute') {
    if (target.attribute === 'title') return sql<boolean>`items.title = ''`;
    if (target.attribute === 'parentId' || target.attribute === 'createdBy')
      return sql<boolean>`${column(target.attribute)} is null`;
    return FALSE;
  }
  const json = propertyJson(target.field.key);
  if (target.valueKind === 'text') return sql<boolean>`(${json} is null or ${json} = '""'::jsonb)`;
  if (target.valueKind === 'options' || target.valueKind === 'persons')
    return sql<boolean>`(${json} is null or ${json} = '[]'::jsonb)`;
  if (target.valueKind === 'boolean')
    return sql<boolean>`(${json} is null or ${json} = 'false'::jsonb)`;
  return sql<boolean>`${json} is null`;
}

/** Multi-valued containment, written so the key's GIN (jsonb_path_ops) index serves it. */
function contains(target: Target, values: readonly unknown[]): Condition {
  if (target.kind !== 'field') throw new Error('containment applies to multi-valued fields');
  return sql<boolean>`${propertyJson(target.field.key)} @> ${jsonValue(values)}`;
}

function hasAny(target: Target, values: readonly unknown[]): Condition {
  return sql<boolean>`(${sql.join(
    values.map((value) => contains(target, [value])),
    sql` or `,
  )})`;
}

/** Date bounds: a day (`YYYY-MM-DD`) covers the whole UTC day; a date-time is an instant. */
function dateBound(target: Target, value: string): Sql {
  if (target.kind === 'field') return jsonValue(value);
  const instant = isDayOnly(value) ? `${value}T00:00:00.000Z` : new Date(value).toISOString();
  return param(instant, 'timestamptz');
}

function normalizeDate(value: string): string {
  return isDayOnly(value) ? value : new Date(value).toISOString();
}

function dateCondition(target: Target, op: Operator, raw: ConditionValue, now: Date): Condition {
  const expr = valueExpression(target);
  if (op === 'withinLast' || op === 'withinNext') {
    const range = raw as RelativeRange;
    const from = op === 'withinLast' ? shift(now, range, -1) : now;
    const to = op === 'withinLast' ? now : shift(now, range, 1);
    if (target.kind === 'field') {
      return sql<boolean>`(${expr} >= ${jsonValue(dayOf(from))} and ${expr} < ${jsonValue(nextDay(dayOf(to)))})`;
    }
    return sql<boolean>`(${expr} >= ${param(from.toISOString(), 'timestamptz')} and ${expr} <= ${param(to.toISOString(), 'timestamptz')})`;
  }
  const value = normalizeDate(String(raw));
  const day = isDayOnly(value);
  const start = dateBound(target, value);
  const end = day ? dateBound(target, nextDay(value)) : start;
  switch (op) {
    case 'eq':
      return day
        ? sql<boolean>`(${expr} >= ${start} and ${expr} < ${end})`
        : sql<boolean>`${expr} = ${start}`;
    case 'before':
      return sql<boolean>`${expr} < ${start}`;
    case 'after':
      return day ? sql<boolean>`${expr} >= ${end}` : sql<boolean>`${expr} > ${start}`;
    case 'onOrBefore':
      return day ? sql<boolean>`${expr} < ${end}` : sql<boolean>`${expr} <= ${start}`;
    case 'onOrAfter':
      return sql<boolean>`${expr} >= ${start}`;
    default:
      throw new Error(`operator ${op} does not apply to dates`);
  }
}

function booleanCondition(target: Target, op: Operator, value: ConditionValue): Condition {
  if (target.kind !== 'field') throw new Error('checkbox conditions apply to fields');
  const json = propertyJson(target.field.key);
  const checked = sql<boolean>`${json} = 'true'::jsonb`;
  const wantChecked = (op === 'eq') === (value === true);
  return wantChecked ? checked : not(checked);
}

export function compileCondition(
  target: Target,
  op: Operator,
  value: ConditionValue,
  now: Date,
): Condition {
  if (op === 'isEmpty') return isEmpty(target);
  if (op === 'isNotEmpty') return not(isEmpty(target));
  if (target.valueKind === 'date') return dateCondition(target, op, value, now);
  if (target.valueKind === 'boolean') return booleanCondition(target, op, value);
  if (op === 'contains' || op === 'startsWith') {
    const pattern = likePattern(String(value), op === 'startsWith');
    return sql<boolean>`${textTarget(target)} ilike ${pattern}`;
  }
  if (op === 'hasAny') return hasAny(target, value as unknown[]);
  if (op === 'hasAll') return contains(target, value as unknown[]);
  if (op === 'hasNone') return not(hasAny(target, value as unknown[]));
  return scalarComparison(target, op, value);
}

/** The WHERE condition of a parsed filter; `now` anchors relative dates. */
/** The ids of cards whose title or body match a web-style search (`item_search`). */
function searchMatches(search: string) {
  return sql`select item_search.item_id from item_search where item_search.vector @@ websearch_to_tsquery('simple', ${search})`;
}

export function compileFilter(node: FilterNode | null, now: Date): Condition {
  if (node === null) return TRUE;
  if ('and' in node)
    return sql<boolean>`(${sql.join(
      node.and.map((child) => compileFilter(child, now)),
      sql` and `,
    )})`;
  if ('or' in node)
    return sql<boolean>`(${sql.join(
      node.or.map((child) => compileFilter(child, now)),
      sql` or `,
    )})`;
  if ('not' in node) return not(compileFilter(node.not, now));
  if ('search' in node) return sql<boolean>`items.id in (${searchMatches(node.search)})`;
  return compileCondition(node.condition.target, node.condition.op, node.condition.value, now);
}
