import type { Field } from '../fields/schemas.js';

/** Built-in attributes a definition may name instead of a registry field. */
export const ATTRIBUTES = [
  'statusId',
  'title',
  'number',
  'parentId',
  'createdBy',
  'createdAt',
  'updatedAt',
] as const;
export type Attribute = (typeof ATTRIBUTES)[number];

export const OPERATORS = [
  'eq',
  'neq',
  'in',
  'nin',
  'lt',
  'lte',
  'gt',
  'gte',
  'contains',
  'startsWith',
  'isEmpty',
  'isNotEmpty',
  'hasAny',
  'hasAll',
  'hasNone',
  'before',
  'after',
  'onOrBefore',
  'onOrAfter',
  'withinLast',
  'withinNext',
  'search',
] as const;
export type Operator = (typeof OPERATORS)[number];

/** What a target holds, which decides its operators and values. */
export type ValueKind =
  | 'text'
  | 'number'
  | 'option'
  | 'options'
  | 'status'
  | 'person'
  | 'persons'
  | 'date'
  | 'boolean'
  | 'item'
  | 'file';

export const OPERATORS_BY_KIND: Record<ValueKind, readonly Operator[]> = {
  text: ['eq', 'neq', 'in', 'nin', 'contains', 'startsWith', 'isEmpty', 'isNotEmpty'],
  number: ['eq', 'neq', 'in', 'nin', 'lt', 'lte', 'gt', 'gte', 'isEmpty', 'isNotEmpty'],
  option: ['eq', 'neq', 'in', 'nin', 'isEmpty', 'isNotEmpty'],
  options: ['hasAny', 'hasAll', 'hasNone', 'isEmpty', 'isNotEmpty'],
  status: ['eq', 'neq', 'in', 'nin'],
  person: ['eq', 'neq', 'in', 'nin', 'isEmpty', 'isNotEmpty'],
  persons: ['hasAny', 'hasAll', 'hasNone', 'isEmpty', 'isNotEmpty'],
  date: [
    'eq',
    'before',
    'after',
    'onOrBefore',
    'onOrAfter',
    'withinLast',
    'withinNext',
    'isEmpty',
    'isNotEmpty',
  ],
  boolean: ['eq', 'neq'],
  item: ['eq', 'neq', 'in', 'nin', 'isEmpty', 'isNotEmpty'],
  file: ['eq', 'neq', 'isEmpty', 'isNotEmpty'],
};

export const KIND_OF_FIELD_TYPE: Record<Field['type'], ValueKind> = {
  text: 'text',
  url: 'text',
  email: 'text',
  number: 'number',
  select: 'option',
  multi_select: 'options',
  person: 'person',
  multi_person: 'persons',
  date: 'date',
  checkbox: 'boolean',
  file: 'file',
};

export const KIND_OF_ATTRIBUTE: Record<Attribute, ValueKind> = {
  statusId: 'status',
  title: 'text',
  number: 'number',
  parentId: 'item',
  createdBy: 'person',
  createdAt: 'date',
  updatedAt: 'date',
};

export const SORTABLE_KINDS: ReadonlySet<ValueKind> = new Set([
  'text',
  'number',
  'option',
  'status',
  'date',
  'boolean',
]);
export const GROUPABLE_KINDS: ReadonlySet<ValueKind> = new Set([
  'status',
  'option',
  'options',
  'person',
  'persons',
  'boolean',
  'date',
]);

export const MAX_DEPTH = 5;
export const MAX_CONDITIONS = 100;
export const MAX_SORT_KEYS = 10;
export const MAX_LIST_VALUES = 100;

/** A field or attribute, resolved against the registry. */
export type Target =
  | { kind: 'field'; field: Field; valueKind: ValueKind }
  | { kind: 'attribute'; attribute: Attribute; valueKind: ValueKind };

export interface RelativeRange {
  amount: number;
  unit: 'days' | 'weeks' | 'months' | 'years';
}

export type ConditionValue = string | number | boolean | string[] | number[] | RelativeRange | null;

export type FilterNode =
  | { and: FilterNode[] }
  | { or: FilterNode[] }
  | { not: FilterNode }
  | { condition: { target: Target; op: Operator; value: ConditionValue } }
  | { search: string };

export interface SortKey {
  target: Target;
  direction: 'asc' | 'desc';
}

export interface GroupBy {
  target: Target;
  /** For date grouping: the IANA time zone whose calendar days are the groups. */
  timeZone: string;
}

/** A definition checked against the registry; what the query compiler works from. */
export interface ParsedDefinition {
  filter: FilterNode | null;
  sort: SortKey[];
  groupBy: GroupBy | null;
  /** Every registry field the definition names. */
  fieldIds: string[];
}

/** What a definition is checked against. */
export interface DefinitionContext {
  fieldsById: ReadonlyMap<string, Field>;
  statusIds: ReadonlySet<string>;
}
