import type { Field } from '../../../../api/registry.js';
import {
  type Condition,
  type ConditionGroup,
  type EditableDefinition,
  type FilterEntry,
  initialValue,
  isGroup,
  type Join,
  newCondition,
  valueShape,
} from './definition.js';
import { kindOf, operatorsFor, type Target } from './operators.js';

/**
 * Where a condition sits: its place at the top level, or its group's place
 * there and its own place in the group.
 */
export type Place = number | readonly [group: number, condition: number];

/** Adds a condition last, at the top level or in the group at `group`. */
export function addCondition(
  definition: EditableDefinition,
  target: Target,
  fields: readonly Field[],
  group?: number,
): EditableDefinition {
  const condition = newCondition(target, fields);
  if (group === undefined) return { ...definition, entries: [...definition.entries, condition] };
  return mapGroup(definition, group, (entry) => ({
    ...entry,
    conditions: [...entry.conditions, condition],
  }));
}

/**
 * Adds a group last, holding one new condition. Its join is the other one
 * than the top level's: a group joined like its parent would say nothing more.
 */
export function addGroup(
  definition: EditableDefinition,
  target: Target,
  fields: readonly Field[],
): EditableDefinition {
  const group: ConditionGroup = {
    join: definition.join === 'and' ? 'or' : 'and',
    conditions: [newCondition(target, fields)],
  };
  return { ...definition, entries: [...definition.entries, group] };
}

/** Removes a top-level entry: a condition, or a group with all it holds. */
export function removeEntry(definition: EditableDefinition, index: number): EditableDefinition {
  return { ...definition, entries: definition.entries.filter((_, at) => at !== index) };
}

/** Removes a condition; a group left empty stays on screen (it is not written). */
export function removeCondition(definition: EditableDefinition, place: Place): EditableDefinition {
  if (typeof place === 'number') return removeEntry(definition, place);
  const [group, index] = place;
  return mapGroup(definition, group, (entry) => ({
    ...entry,
    conditions: entry.conditions.filter((_, at) => at !== index),
  }));
}

export function changeGroupJoin(
  definition: EditableDefinition,
  group: number,
  join: Join,
): EditableDefinition {
  return mapGroup(definition, group, (entry) => ({ ...entry, join }));
}

/**
 * Changes one condition. A new target keeps the operator only where it is
 * valid for the target's kind; a new operator keeps the value only when its
 * shape is the same.
 */
export function changeCondition(
  definition: EditableDefinition,
  place: Place,
  change: Partial<Condition>,
  fields: readonly Field[],
): EditableDefinition {
  const apply = (condition: Condition) => changedCondition(condition, change, fields);
  if (typeof place === 'number') {
    return {
      ...definition,
      entries: definition.entries.map((entry: FilterEntry, at) =>
        at !== place || isGroup(entry) ? entry : apply(entry),
      ),
    };
  }
  const [group, index] = place;
  return mapGroup(definition, group, (entry) => ({
    ...entry,
    conditions: entry.conditions.map((condition, at) =>
      at === index ? apply(condition) : condition,
    ),
  }));
}

function changedCondition(
  condition: Condition,
  change: Partial<Condition>,
  fields: readonly Field[],
): Condition {
  if (change.target !== undefined) {
    const kind = kindOf(change.target, fields);
    const valid = operatorsFor(kind);
    const op = valid.includes(condition.op) ? condition.op : (valid[0] ?? 'isNotEmpty');
    const sameKind = kindOf(condition.target, fields) === kind;
    const value =
      sameKind && op === condition.op ? condition.value : initialValue(valueShape(op, kind));
    return { target: change.target, op, value };
  }
  const kind = kindOf(condition.target, fields);
  const op = change.op ?? condition.op;
  const shapeKept = valueShape(op, kind) === valueShape(condition.op, kind);
  const value =
    change.value !== undefined
      ? change.value
      : shapeKept
        ? condition.value
        : initialValue(valueShape(op, kind));
  return { ...condition, op, value };
}

function mapGroup(
  definition: EditableDefinition,
  group: number,
  change: (entry: ConditionGroup) => ConditionGroup,
): EditableDefinition {
  return {
    ...definition,
    entries: definition.entries.map((entry, at) =>
      at === group && isGroup(entry) ? change(entry) : entry,
    ),
  };
}
