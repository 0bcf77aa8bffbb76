import type { Field } from '../../../../api/registry.js';

/**
 * What the editor knows of the view compiler's rules (src/content/view-compiler/
 * definition.ts): the attributes a condition may name, what each target holds,
 * and the operators valid on it. The server checks again; these keep the
 * editor from offering what it would refuse.
 */
export const EDITABLE_ATTRIBUTES = [
  'title',
  'statusId',
  'number',
  'createdBy',
  'createdAt',
  'updatedAt',
] as const;
export type Attribute = (typeof EDITABLE_ATTRIBUTES)[number] | 'parentId';

export const ATTRIBUTE_LABELS: Record<Attribute, string> = {
  title: 'Title',
  statusId: 'Status',
  number: 'Number',
  parentId: 'Parent',
  createdBy: 'Created by',
  createdAt: 'Created',
  updatedAt: 'Updated',
};

export type Operator =
  | 'eq'
  | 'neq'
  | 'in'
  | 'nin'
  | 'lt'
  | 'lte'
  | 'gt'
  | 'gte'
  | 'contains'
  | 'startsWith'
  | 'isEmpty'
  | 'isNotEmpty'
  | 'hasAny'
  | 'hasAll'
  | 'hasNone'
  | 'before'
  | 'after'
  | 'onOrBefore'
  | 'onOrAfter'
  | 'withinLast'
  | 'withinNext';

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
  text: ['contains', 'eq', 'neq', 'startsWith', 'isEmpty', 'isNotEmpty'],
  number: ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'isEmpty', 'isNotEmpty'],
  option: ['in', 'nin', 'eq', 'neq', 'isEmpty', 'isNotEmpty'],
  options: ['hasAny', 'hasAll', 'hasNone', 'isEmpty', 'isNotEmpty'],
  status: ['in', 'nin', 'eq', 'neq'],
  person: ['in', 'nin', 'eq', 'neq', 'isEmpty', 'isNotEmpty'],
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
  item: ['eq', 'neq', 'isEmpty', 'isNotEmpty'],
  file: ['isEmpty', 'isNotEmpty'],
};

export const OPERATOR_LABELS: Record<Operator, string> = {
  eq: 'is',
  neq: 'is not',
  in: 'is any of',
  nin: 'is none of',
  lt: 'less than',
  lte: 'at most',
  gt: 'more than',
  gte: 'at least',
  contains: 'contains',
  startsWith: 'starts with',
  isEmpty: 'is empty',
  isNotEmpty: 'is not empty',
  hasAny: 'has any of',
  hasAll: 'has all of',
  hasNone: 'has none of',
  before: 'before',
  after: 'after',
  onOrBefore: 'on or before',
  onOrAfter: 'on or after',
  withinLast: 'within the last',
  withinNext: 'within the next',
};

export function isOperator(value: unknown): value is Operator {
  return typeof value === 'string' && Object.hasOwn(OPERATOR_LABELS, value);
}

const KIND_OF_FIELD_TYPE: Record<Field['type'], ValueKind> = {
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

const KIND_OF_ATTRIBUTE: Record<Attribute, ValueKind> = {
  statusId: 'status',
  title: 'text',
  number: 'number',
  parentId: 'item',
  createdBy: 'person',
  createdAt: 'date',
  updatedAt: 'date',
};

const SORTABLE: ReadonlySet<ValueKind> = new Set([
  'text',
  'number',
  'option',
  'status',
  'date',
  'boolean',
]);
const GROUPABLE: ReadonlySet<ValueKind> = new Set([
  'status',
  'option',
  'options',
  'person',
  'persons',
  'boolean',
  'date',
]);

/** A condition, sort key or grouping names a registry field by id, or an attribute. */
export type Target = { fieldId: string } | { attribute: Attribute };

export function sameTarget(a: Target, b: Target): boolean {
  if ('fieldId' in a) return 'fieldId' in b && a.fieldId === b.fieldId;
  return 'attribute' in b && a.attribute === b.attribute;
}

/** What the target holds; undefined for a field no longer in the registry. */
export function kindOf(target: Target, fields: readonly Field[]): ValueKind | undefined {
  if ('attribute' in target) return KIND_OF_ATTRIBUTE[target.attribute];
  const field = fields.find((candidate) => candidate.id === target.fieldId);
  return field === undefined ? undefined : KIND_OF_FIELD_TYPE[field.type];
}

export function operatorsFor(kind: ValueKind | undefined): readonly Operator[] {
  return kind === undefined ? [] : OPERATORS_BY_KIND[kind];
}

export const isSortable = (kind: ValueKind | undefined) => kind !== undefined && SORTABLE.has(kind);
export const isGroupable = (kind: ValueKind | undefined) =>
  kind !== undefined && GROUPABLE.has(kind);

/** Every target a person may pick, with its name: the attributes, then the registry's fields. */
export function targetsOf(fields: readonly Field[]): Array<{ target: Target; label: string }> {
  return [
    ...EDITABLE_ATTRIBUTES.map((attribute) => ({
      target: { attribute },
      label: ATTRIBUTE_LABELS[attribute],
    })),
    ...fields.map((field) => ({ target: { fieldId: field.id }, label: field.name })),
  ];
}

export function targetLabel(target: Target, fields: readonly Field[]): string {
  if ('attribute' in target) return ATTRIBUTE_LABELS[target.attribute];
  return fields.find((field) => field.id === target.fieldId)?.name ?? 'A removed field';
}

/** A target as one string (for a `<select>`'s value) and back. */
export function targetToken(target: Target): string {
  return 'fieldId' in target ? `field:${target.fieldId}` : `attribute:${target.attribute}`;
}

export function targetFromToken(token: string): Target | undefined {
  const [kind, name] = [token.slice(0, token.indexOf(':')), token.slice(token.indexOf(':') + 1)];
  if (kind === 'field' && name !== '') return { fieldId: name };
  const attribute = [...EDITABLE_ATTRIBUTES, 'parentId' as const].find((a) => a === name);
  if (kind === 'attribute' && attribute !== undefined) return { attribute };
  return undefined;
}
