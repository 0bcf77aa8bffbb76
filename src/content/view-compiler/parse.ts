import { badRequest } from '../../http/errors.js';
import { UUID_PATTERN } from '../../http/schemas.js';
import {
  ATTRIBUTES,
  type Attribute,
  type DefinitionContext,
  type FilterNode,
  GROUPABLE_KINDS,
  type GroupBy,
  KIND_OF_ATTRIBUTE,
  KIND_OF_FIELD_TYPE,
  MAX_CONDITIONS,
  MAX_DEPTH,
  MAX_SORT_KEYS,
  OPERATORS,
  OPERATORS_BY_KIND,
  type Operator,
  type ParsedDefinition,
  SORTABLE_KINDS,
  type SortKey,
  type Target,
} from './definition.js';
import { checkValue } from './values.js';

const uuid = new RegExp(UUID_PATTERN);

type Json = Record<string, unknown>;

function shape(path: string, message: string): Error {
  return badRequest('invalid_definition', message, { path });
}

function asObject(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw shape(path, 'Expected an object');
  return value as Json;
}

function onlyKeys(object: Json, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) throw shape(`${path}/${key}`, `Unknown property "${key}"`);
  }
}

/** A `fieldId` or an `attribute`, resolved; a field key where an id is expected is refused. */
function resolveTarget(object: Json, context: DefinitionContext, path: string): Target {
  const hasField = 'fieldId' in object;
  const hasAttribute = 'attribute' in object;
  if (hasField === hasAttribute) throw shape(path, 'Name exactly one of "fieldId" and "attribute"');
  if (hasField) {
    const id = object.fieldId;
    const field =
      typeof id === 'string' && uuid.test(id)
        ? context.fieldsById.get(id.toLowerCase())
        : undefined;
    if (field === undefined) {
      throw badRequest(
        'unknown_field',
        'fieldId must be the id of a field of this workspace (not its key)',
        {
          path: `${path}/fieldId`,
          fieldId: id,
        },
      );
    }
    return { kind: 'field', field, valueKind: KIND_OF_FIELD_TYPE[field.type] };
  }
  const attribute = ATTRIBUTES.find((candidate) => candidate === object.attribute);
  if (attribute === undefined) {
    throw badRequest('unknown_attribute', `attribute must be one of ${ATTRIBUTES.join(', ')}`, {
      path: `${path}/attribute`,
    });
  }
  return {
    kind: 'attribute',
    attribute: attribute as Attribute,
    valueKind: KIND_OF_ATTRIBUTE[attribute],
  };
}

interface Walk {
  context: DefinitionContext;
  conditions: number;
  fieldIds: Set<string>;
}

function parseFilter(raw: unknown, walk: Walk, path: string, depth: number): FilterNode {
  const object = asObject(raw, path);
  for (const group of ['and', 'or'] as const) {
    if (group in object) {
      onlyKeys(object, [group], path);
      if (depth >= MAX_DEPTH)
        throw badRequest('definition_too_deep', `Filters nest at most ${MAX_DEPTH} levels`, {
          path,
        });
      const children = object[group];
      if (!Array.isArray(children) || children.length === 0)
        throw shape(`${path}/${group}`, 'Expected a non-empty array');
      const nodes = children.map((child, index) =>
        parseFilter(child, walk, `${path}/${group}/${index}`, depth + 1),
      );
      return group === 'and' ? { and: nodes } : { or: nodes };
    }
  }
  if ('not' in object) {
    onlyKeys(object, ['not'], path);
    if (depth >= MAX_DEPTH)
      throw badRequest('definition_too_deep', `Filters nest at most ${MAX_DEPTH} levels`, { path });
    return { not: parseFilter(object.not, walk, `${path}/not`, depth + 1) };
  }
  walk.conditions += 1;
  if (walk.conditions > MAX_CONDITIONS) {
    throw badRequest('too_many_conditions', `A filter has at most ${MAX_CONDITIONS} conditions`, {
      path,
    });
  }
  const op = OPERATORS.find((candidate) => candidate === object.op);
  if (op === undefined)
    throw badRequest('invalid_operator', `op must be one of ${OPERATORS.join(', ')}`, {
      path: `${path}/op`,
    });
  if (op === 'search') {
    onlyKeys(object, ['op', 'value'], path);
    const value = object.value;
    if (typeof value !== 'string' || value.trim() === '' || value.length > 200) {
      throw badRequest('invalid_value', 'search needs a text of 1 to 200 characters', {
        path: `${path}/value`,
      });
    }
    return { search: value };
  }
  onlyKeys(object, ['fieldId', 'attribute', 'op', 'value'], path);
  const target = resolveTarget(object, walk.context, path);
  if (target.kind === 'field') walk.fieldIds.add(target.field.id);
  if (!OPERATORS_BY_KIND[target.valueKind].includes(op)) {
    throw badRequest(
      'invalid_operator',
      `Operator ${op} does not apply to this ${describe(target)}`,
      {
        path: `${path}/op`,
        allowed: OPERATORS_BY_KIND[target.valueKind],
      },
    );
  }
  const value = checkValue(op as Operator, object.value, target, walk.context, `${path}/value`);
  return { condition: { target, op, value } };
}

function describe(target: Target): string {
  return target.kind === 'field' ? `${target.field.type} field` : `attribute ${target.attribute}`;
}

function parseSort(raw: unknown, walk: Walk): SortKey[] {
  if (!Array.isArray(raw)) throw shape('/sort', 'Expected an array');
  if (raw.length > MAX_SORT_KEYS) throw shape('/sort', `At most ${MAX_SORT_KEYS} sort keys`);
  return raw.map((entry, index) => {
    const path = `/sort/${index}`;
    const object = asObject(entry, path);
    onlyKeys(object, ['fieldId', 'attribute', 'direction'], path);
    const target = resolveTarget(object, walk.context, path);
    if (target.kind === 'field') walk.fieldIds.add(target.field.id);
    if (!SORTABLE_KINDS.has(target.valueKind)) {
      throw badRequest('field_not_sortable', `Cannot sort by this ${describe(target)}`, { path });
    }
    const direction = object.direction ?? 'asc';
    if (direction !== 'asc' && direction !== 'desc')
      throw shape(`${path}/direction`, 'Expected "asc" or "desc"');
    return { target, direction };
  });
}

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

function parseGroupBy(raw: unknown, walk: Walk): GroupBy {
  const path = '/groupBy';
  const object = asObject(raw, path);
  onlyKeys(object, ['fieldId', 'attribute', 'timeZone'], path);
  const target = resolveTarget(object, walk.context, path);
  if (target.kind === 'field') walk.fieldIds.add(target.field.id);
  if (!GROUPABLE_KINDS.has(target.valueKind)) {
    throw badRequest('field_not_groupable', `Cannot group by this ${describe(target)}`, { path });
  }
  const timeZone = object.timeZone ?? 'UTC';
  if (typeof timeZone !== 'string' || !isTimeZone(timeZone)) {
    throw badRequest(
      'invalid_time_zone',
      'timeZone must be an IANA time zone such as Europe/Paris',
      {
        path: `${path}/timeZone`,
      },
    );
  }
  if (object.timeZone !== undefined && target.valueKind !== 'date') {
    throw shape(`${path}/timeZone`, 'timeZone applies to date grouping only');
  }
  return { target, timeZone };
}

/**
 * Checks a view definition (`{filter?, sort?, groupBy?}`) against the
 * registry and statuses. Pure: no I/O. Every refusal is a 400 whose details
 * name the place (`path`, a JSON pointer into the definition).
 */
export function parseDefinition(raw: unknown, context: DefinitionContext): ParsedDefinition {
  const object = asObject(raw, '');
  onlyKeys(object, ['filter', 'sort', 'groupBy'], '');
  const walk: Walk = { context, conditions: 0, fieldIds: new Set() };
  const filter =
    object.filter === undefined || object.filter === null
      ? null
      : parseFilter(object.filter, walk, '/filter', 0);
  const sort = object.sort === undefined ? [] : parseSort(object.sort, walk);
  const groupBy =
    object.groupBy === undefined || object.groupBy === null
      ? null
      : parseGroupBy(object.groupBy, walk);
  return { filter, sort, groupBy, fieldIds: [...walk.fieldIds] };
}
