import type { Field } from '../../../../api/registry.js';
import {
  type Attribute,
  EDITABLE_ATTRIBUTES,
  isOperator,
  kindOf,
  type Operator,
  operatorsFor,
  type Target,
  type ValueKind,
} from './operators.js';

/**
 * The view definition as the editor edits it: conditions and groups of
 * conditions joined by "and" or "or", each group with its own join; a sort
 * list and an optional grouping. The API nests and/or/not up to 5 levels
 * (MAX_DEPTH in src/content/view-compiler/definition.ts); the editor shows two
 * (the top join and its groups). A definition with more (groups within groups,
 * `not`, a search) is kept as it is and not offered for editing
 * (`fromDefinition` answers undefined), so nothing the API accepted is lost.
 */
export interface RelativeRange {
  amount: number;
  unit: 'days' | 'weeks' | 'months' | 'years';
}
export type ConditionValue = string | number | boolean | string[] | RelativeRange | null;

export interface Condition {
  target: Target;
  op: Operator;
  value: ConditionValue;
}

export interface SortKey {
  target: Target;
  direction: 'asc' | 'desc';
}

export type Join = 'and' | 'or';

/** Conditions under their own join, one entry of the top level. */
export interface ConditionGroup {
  join: Join;
  conditions: Condition[];
}

export type FilterEntry = Condition | ConditionGroup;

export function isGroup(entry: FilterEntry): entry is ConditionGroup {
  return 'conditions' in entry;
}

export interface EditableDefinition {
  join: Join;
  /** The top level: conditions and groups, in the order shown. */
  entries: FilterEntry[];
  sort: SortKey[];
  groupBy: Target | null;
}

export const EMPTY: EditableDefinition = { join: 'and', entries: [], sort: [], groupBy: null };

/** Every condition, those in groups too. */
export function conditionsOf(definition: EditableDefinition): Condition[] {
  return definition.entries.flatMap((entry) => (isGroup(entry) ? entry.conditions : [entry]));
}

/** What a condition's value is, given its operator and the target's kind. */
export type ValueShape = 'none' | 'list' | 'range' | 'boolean' | 'number' | 'date' | 'text' | 'one';

export function valueShape(op: Operator, kind: ValueKind | undefined): ValueShape {
  if (op === 'isEmpty' || op === 'isNotEmpty') return 'none';
  if (op === 'withinLast' || op === 'withinNext') return 'range';
  if (['in', 'nin', 'hasAny', 'hasAll', 'hasNone'].includes(op)) return 'list';
  if (kind === 'boolean') return 'boolean';
  if (kind === 'number') return 'number';
  if (kind === 'date') return 'date';
  if (kind === 'text') return 'text';
  return 'one';
}

/** The empty value of a shape: what a new or re-shaped condition starts with. */
export function initialValue(shape: ValueShape): ConditionValue {
  switch (shape) {
    case 'none':
      return null;
    case 'list':
      return [];
    case 'range':
      return { amount: 7, unit: 'days' };
    case 'boolean':
      return true;
    case 'number':
      return null;
    default:
      return '';
  }
}

/** A new condition on the target, with its first valid operator. */
export function newCondition(target: Target, fields: readonly Field[]): Condition {
  const kind = kindOf(target, fields);
  const op = operatorsFor(kind)[0] ?? 'isNotEmpty';
  return { target, op, value: initialValue(valueShape(op, kind)) };
}

/** Whether the condition can be sent: an operator valid on its target and a value it needs. */
export function isComplete(condition: Condition, fields: readonly Field[]): boolean {
  const kind = kindOf(condition.target, fields);
  if (!operatorsFor(kind).includes(condition.op)) return false;
  const { value } = condition;
  switch (valueShape(condition.op, kind)) {
    case 'none':
      return true;
    case 'list':
      return Array.isArray(value) && value.length > 0;
    case 'range':
      return typeof value === 'object' && value !== null && 'amount' in value && value.amount > 0;
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return typeof value === 'string' && value.trim() !== '';
  }
}

function targetJson(target: Target): Record<string, string> {
  return 'fieldId' in target ? { fieldId: target.fieldId } : { attribute: target.attribute };
}

function conditionJson(condition: Condition, fields: readonly Field[]): Record<string, unknown> {
  const shape = valueShape(condition.op, kindOf(condition.target, fields));
  return {
    ...targetJson(condition.target),
    op: condition.op,
    ...(shape === 'none' ? {} : { value: condition.value }),
  };
}

/** The complete conditions of a list, as the API has them. */
function conditionsJson(conditions: readonly Condition[], fields: readonly Field[]) {
  return conditions
    .filter((condition) => isComplete(condition, fields))
    .map((condition) => conditionJson(condition, fields));
}

/**
 * The ViewDefinition of the editor's state. Incomplete conditions are left
 * out (the table keeps showing the last complete filter while one is typed),
 * and so is a group left with none (the API refuses an empty and/or).
 */
export function toDefinition(
  definition: EditableDefinition,
  fields: readonly Field[],
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const entries = definition.entries.flatMap((entry) => {
    if (!isGroup(entry)) return conditionsJson([entry], fields);
    const conditions = conditionsJson(entry.conditions, fields);
    return conditions.length === 0 ? [] : [{ [entry.join]: conditions }];
  });
  if (entries.length > 0) result.filter = { [definition.join]: entries };
  if (definition.sort.length > 0) {
    result.sort = definition.sort.map((key) => ({
      ...targetJson(key.target),
      direction: key.direction,
    }));
  }
  if (definition.groupBy !== null) {
    const groupBy: Record<string, string> = targetJson(definition.groupBy);
    if (kindOf(definition.groupBy, fields) === 'date') {
      groupBy.timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    }
    result.groupBy = groupBy;
  }
  return result;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function targetOf(node: Record<string, unknown>): Target | undefined {
  if (typeof node.fieldId === 'string') return { fieldId: node.fieldId };
  const attribute = [...EDITABLE_ATTRIBUTES, 'parentId' as const].find((a) => a === node.attribute);
  return attribute === undefined ? undefined : { attribute: attribute satisfies Attribute };
}

function isConditionValue(value: unknown): value is ConditionValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) ||
    (isRecord(value) && typeof value.amount === 'number' && typeof value.unit === 'string')
  );
}

function conditionOf(node: unknown): Condition | undefined {
  if (!isRecord(node) || !isOperator(node.op)) return undefined;
  const target = targetOf(node);
  const value = node.value ?? null;
  if (target === undefined || !isConditionValue(value)) return undefined;
  return { target, op: node.op, value };
}

/** The join and the nodes of an and/or node; undefined for anything else. */
function joinOf(node: Record<string, unknown>): { join: Join; nodes: unknown[] } | undefined {
  if (Object.keys(node).length !== 1) return undefined;
  if (Array.isArray(node.and)) return { join: 'and', nodes: node.and };
  if (Array.isArray(node.or)) return { join: 'or', nodes: node.or };
  return undefined;
}

/** A group of conditions only (the API refuses an empty one, so does the editor). */
function groupOf(node: unknown): ConditionGroup | undefined {
  const joined = isRecord(node) ? joinOf(node) : undefined;
  if (joined === undefined || joined.nodes.length === 0) return undefined;
  const conditions = joined.nodes.map(conditionOf);
  if (!conditions.every((condition) => condition !== undefined)) return undefined;
  return { join: joined.join, conditions };
}

/** The top level of a filter: an and/or of conditions and groups, or one condition. */
function entriesOf(filter: unknown): Pick<EditableDefinition, 'join' | 'entries'> | undefined {
  if (!isRecord(filter)) return undefined;
  const joined = joinOf(filter);
  if (joined === undefined) {
    const condition = conditionOf(filter);
    return condition === undefined ? undefined : { join: 'and', entries: [condition] };
  }
  const entries: FilterEntry[] = [];
  for (const node of joined.nodes) {
    const entry = conditionOf(node) ?? groupOf(node);
    if (entry === undefined) return undefined;
    entries.push(entry);
  }
  return { join: joined.join, entries };
}

/** The editor's state of a definition, or undefined when it holds more than the editor shows. */
export function fromDefinition(definition: unknown): EditableDefinition | undefined {
  if (!isRecord(definition)) return undefined;
  const result: EditableDefinition = { ...EMPTY, entries: [], sort: [] };
  const { filter, sort, groupBy } = definition;
  if (filter !== undefined && filter !== null) {
    const top = entriesOf(filter);
    if (top === undefined) return undefined;
    result.join = top.join;
    result.entries = top.entries;
  }
  if (sort !== undefined) {
    if (!Array.isArray(sort)) return undefined;
    for (const key of sort) {
      const target = isRecord(key) ? targetOf(key) : undefined;
      if (target === undefined || !isRecord(key)) return undefined;
      result.sort.push({ target, direction: key.direction === 'desc' ? 'desc' : 'asc' });
    }
  }
  if (groupBy !== undefined && groupBy !== null) {
    const target = isRecord(groupBy) ? targetOf(groupBy) : undefined;
    if (target === undefined) return undefined;
    result.groupBy = target;
  }
  return result;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort()
      .map((key) => [key, canonical(value[key])]),
  );
}

/** Whether two definitions say the same (key order aside). */
export function sameDefinition(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a ?? {})) === JSON.stringify(canonical(b ?? {}));
}
