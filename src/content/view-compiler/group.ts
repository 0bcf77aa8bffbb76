import { type RawBuilder, sql } from 'kysely';
import { nextDay } from './dates.js';
import type { GroupBy } from './definition.js';
import { column, jsonValue, propertyJson, propertyText, type Sql } from './targets.js';

/** A group value as the API shows it: an id, a day, true or false; null is the "empty" group. */
export type GroupValue = string | boolean | null;

/** The calendar day (in the group's time zone) of a date property or attribute. */
function dayExpression(group: GroupBy): Sql {
  const zone = group.timeZone;
  if (group.target.kind === 'attribute') {
    return sql`to_char(${column(group.target.attribute)} at time zone ${zone}, 'YYYY-MM-DD')`;
  }
  const text = propertyText(group.target.field.key);
  return sql`case when length(${text}) = 10 then ${text} else to_char(cast(${text} as timestamptz) at time zone ${zone}, 'YYYY-MM-DD') end`;
}

/** Multi-valued targets put a card in one group per value. */
export function isMultiValued(group: GroupBy): boolean {
  return group.target.valueKind === 'options' || group.target.valueKind === 'persons';
}

/**
 * A card's group (single-valued targets), as text, or as the column itself for
 * attributes: counts group by the raw column and turn the few groups into text
 * afterwards, instead of converting a million values.
 */
export function groupExpression(group: GroupBy): Sql {
  const { target } = group;
  if (target.valueKind === 'date') return dayExpression(group);
  if (target.kind === 'attribute') return column(target.attribute);
  if (target.valueKind === 'boolean')
    return sql`cast(coalesce(${propertyJson(target.field.key)} = 'true'::jsonb, false) as text)`;
  return propertyText(target.field.key);
}

/** The multi-valued property's array (an empty array when missing), for `jsonb_array_elements_text`. */
export function groupArray(group: GroupBy): Sql {
  if (group.target.kind !== 'field') throw new Error('only fields are multi-valued');
  const json = propertyJson(group.target.field.key);
  return sql`case when jsonb_typeof(${json}) = 'array' then ${json} else '[]'::jsonb end`;
}

/** The cards of one group: a kanban column, a calendar day, or the empty group. */
export function groupCondition(group: GroupBy, value: GroupValue): RawBuilder<boolean> {
  const { target } = group;
  if (isMultiValued(group)) {
    if (target.kind !== 'field') throw new Error('only fields are multi-valued');
    const json = propertyJson(target.field.key);
    if (value === null) return sql<boolean>`(${json} is null or ${json} = '[]'::jsonb)`;
    return sql<boolean>`${json} @> ${jsonValue([value])}`;
  }
  if (target.valueKind === 'boolean' && target.kind === 'field') {
    const checked = sql<boolean>`${propertyJson(target.field.key)} = 'true'::jsonb`;
    return value === true || value === 'true'
      ? checked
      : sql<boolean>`not coalesce(${checked}, false)`;
  }
  if (target.valueKind === 'date') {
    if (value === null) return sql<boolean>`${groupExpression(group)} is null`;
    const day = String(value);
    if (target.kind === 'field') {
      // Both date-only values and date-times that fall on the day in the group's zone.
      const text = propertyText(target.field.key);
      const json = propertyJson(target.field.key);
      return sql<boolean>`((${json} >= ${jsonValue(day)} and ${json} < ${jsonValue(nextDay(day))} and length(${text}) = 10)
        or (length(${text}) > 10 and ${dayExpression(group)} = ${day}))`;
    }
    return sql<boolean>`${dayExpression(group)} = ${day}`;
  }
  const expr = target.kind === 'field' ? propertyJson(target.field.key) : column(target.attribute);
  if (value === null) return sql<boolean>`${expr} is null`;
  if (target.kind === 'field') return sql<boolean>`${expr} = ${jsonValue(value)}`;
  return sql<boolean>`${expr} = cast(${value} as uuid)`;
}
