import { type RawBuilder, sql } from 'kysely';
import type { Attribute, Target } from './definition.js';

/**
 * SQL expressions for what a definition names. Property keys come from the
 * registry (`^[a-z][a-z0-9_]*$`) and are inlined as literals, so the
 * expressions match the per-key indexes (`(properties -> 'key')`) textually.
 */

export type Sql = RawBuilder<unknown>;

const ATTRIBUTE_COLUMNS: Record<Attribute, string> = {
  statusId: 'status_id',
  title: 'title',
  number: 'number',
  parentId: 'parent_id',
  createdBy: 'created_by',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

export function column(attribute: Attribute): Sql {
  return sql.ref(`items.${ATTRIBUTE_COLUMNS[attribute]}`);
}

/** The property as jsonb: compares numbers numerically, strings (ISO dates, ids) lexically. */
export function propertyJson(key: string): Sql {
  return sql`(items.properties -> ${sql.lit(key)})`;
}

/** The property as text. */
export function propertyText(key: string): Sql {
  return sql`(items.properties ->> ${sql.lit(key)})`;
}

/** A jsonb literal parameter. */
export function jsonValue(value: unknown): Sql {
  return sql`cast(${JSON.stringify(value)} as jsonb)`;
}

/** How a value of this target is written as a parameter. */
export type ValueCast =
  | 'jsonb'
  | 'uuid'
  | 'text'
  | 'bigint'
  | 'timestamptz'
  | 'integer'
  | 'boolean';

export function castOf(target: Target): ValueCast {
  if (target.kind === 'field') return 'jsonb';
  switch (target.attribute) {
    case 'statusId':
    case 'parentId':
    case 'createdBy':
      return 'uuid';
    case 'title':
      return 'text';
    case 'number':
      return 'bigint';
    case 'createdAt':
    case 'updatedAt':
      return 'timestamptz';
  }
}

/** A parameter cast to the type the target compares with. */
export function param(value: unknown, cast: ValueCast): Sql {
  if (cast === 'jsonb') return jsonValue(value);
  return sql`cast(${value} as ${sql.raw(cast)})`;
}

/** The value of a target as compared in filters: jsonb for properties, the column for attributes. */
export function valueExpression(target: Target): Sql {
  return target.kind === 'field' ? propertyJson(target.field.key) : column(target.attribute);
}
