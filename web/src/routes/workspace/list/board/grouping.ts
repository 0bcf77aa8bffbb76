import type { Field, GroupValue, Item, ItemChange, Status } from '../../../../api/board.js';

/** What the board's columns are made of: the grouping of the view's definition. */
export type Grouping =
  | { kind: 'status' }
  | { kind: 'select'; field: Field }
  | { kind: 'checkbox'; field: Field }
  /** Other groupings (multi-select, people, dates): shown, but cards do not move between them. */
  | { kind: 'other'; field: Field };

/** A column of the board: its group value, the key cursors and caches use, its name. */
export interface BoardColumn {
  key: string;
  value: GroupValue;
  name: string;
  color: string | null;
}

/** The text key of a group value, as the API keys per-group cursors (`null`, `true`, `false`). */
export function groupKey(value: GroupValue): string {
  return value === null ? 'null' : String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The field id the definition groups by; undefined when it groups by status or not at all. */
export function groupByFieldId(definition: Record<string, unknown>): string | undefined {
  const groupBy = definition.groupBy;
  if (!isRecord(groupBy) || typeof groupBy.fieldId !== 'string') return undefined;
  return groupBy.fieldId;
}

/** The definition the board queries: the view's own, grouped by status when it has no grouping. */
export function boardDefinition(definition: Record<string, unknown>): Record<string, unknown> {
  if (isRecord(definition.groupBy)) return definition;
  return { ...definition, groupBy: { attribute: 'statusId' } };
}

/** Whether the definition orders the cards itself (then manual order within a column is off). */
export function isSorted(definition: Record<string, unknown>): boolean {
  return Array.isArray(definition.sort) && definition.sort.length > 0;
}

export function groupingOf(
  definition: Record<string, unknown>,
  fields: readonly Field[],
): Grouping | undefined {
  const fieldId = groupByFieldId(definition);
  if (fieldId === undefined) return { kind: 'status' };
  const field = fields.find((candidate) => candidate.id === fieldId);
  if (field === undefined) return undefined;
  if (field.type === 'select') return { kind: 'select', field };
  if (field.type === 'checkbox') return { kind: 'checkbox', field };
  return { kind: 'other', field };
}

/**
 * The columns in order: the statuses by position, or the field's options in
 * their order then "No {field}"; then values only the counts know (an option
 * since removed, a person, a day), the empty group last.
 */
export function boardColumns(
  grouping: Grouping,
  statuses: readonly Status[],
  counted: readonly GroupValue[],
): BoardColumn[] {
  const declared: BoardColumn[] = [];
  if (grouping.kind === 'status') {
    for (const status of [...statuses].sort((a, b) => a.position - b.position)) {
      declared.push({ key: status.id, value: status.id, name: status.name, color: status.color });
    }
  } else if (grouping.kind === 'checkbox') {
    declared.push({ key: 'true', value: true, name: grouping.field.name, color: null });
    declared.push({ key: 'false', value: false, name: `Not ${grouping.field.name}`, color: null });
  } else {
    for (const option of grouping.field.config.options ?? []) {
      declared.push({ key: option.id, value: option.id, name: option.label, color: option.color });
    }
  }
  const known = new Set(declared.map((column) => column.key));
  const others = counted
    .filter((value) => value !== null && !known.has(groupKey(value)))
    .map((value) => ({ key: groupKey(value), value, name: String(value), color: null }));
  const columns = [...declared, ...others];
  // An empty column to drag a card out of every option (or to show cards without one).
  const showsEmpty = grouping.kind === 'select' || counted.includes(null);
  if (grouping.kind !== 'status' && showsEmpty) {
    columns.push({ key: 'null', value: null, name: `No ${grouping.field.name}`, color: null });
  }
  return columns;
}

/** The change that puts a card in a column, or undefined when cards cannot move there. */
export function changeFor(grouping: Grouping, value: GroupValue): ItemChange | undefined {
  if (grouping.kind === 'status')
    return typeof value === 'string' ? { statusId: value } : undefined;
  if (grouping.kind === 'select') {
    return typeof value === 'boolean' ? undefined : { properties: { [grouping.field.key]: value } };
  }
  if (grouping.kind === 'checkbox') {
    return { properties: { [grouping.field.key]: value === null ? null : value === true } };
  }
  return undefined;
}

/** The card as it will be once the change is written (for the optimistic cache). */
export function applyChange(item: Item, change: ItemChange): Item {
  const next: Item = { ...item };
  if (change.statusId !== undefined) next.statusId = change.statusId;
  if (change.properties !== undefined) {
    const properties: Record<string, unknown> = { ...item.properties };
    for (const [key, value] of Object.entries(change.properties)) {
      if (value === null) delete properties[key];
      else properties[key] = value;
    }
    next.properties = properties;
  }
  return next;
}
