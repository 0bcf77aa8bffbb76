import type { Collection, ViewDisplay } from '../../../../api/lists.js';
import type { Field } from '../../../../api/registry.js';
import { ATTRIBUTE_LABELS, type Attribute, type Target, targetToken } from '../editor/operators.js';

export type DisplayColumn = NonNullable<ViewDisplay['columns']>[number];

/** A column of the table: a registry field or an attribute, shown or hidden. */
export interface TableColumn {
  /** Stable among the columns (`field:<id>`, `attribute:title`). */
  id: string;
  target: Target;
  label: string;
  hidden: boolean;
  width: number | undefined;
}

/** Attributes a person may show as columns (the key always leads the row; the title always shows). */
const COLUMN_ATTRIBUTES: readonly Attribute[] = ['statusId', 'createdBy', 'createdAt', 'updatedAt'];

function column(target: Target, fields: readonly Field[], hidden: boolean, width?: number) {
  const label =
    'attribute' in target
      ? ATTRIBUTE_LABELS[target.attribute]
      : (fields.find((field) => field.id === target.fieldId)?.name ?? 'A removed field');
  return { id: targetToken(target), target, label, hidden, width };
}

/**
 * Every column a person may pick, in order: those of the view's display (or,
 * without one, the status then the list's fields), then the rest, hidden.
 * Fields no longer in the registry are dropped.
 */
export function columnChoices(
  display: ViewDisplay,
  collection: Collection,
  fields: readonly Field[],
): TableColumn[] {
  const known = new Set(fields.map((field) => field.id));
  const chosen: TableColumn[] = [];
  const seen = new Set<string>(['attribute:title', 'attribute:number']);
  const add = (target: Target, hidden: boolean, width?: number) => {
    if ('fieldId' in target && !known.has(target.fieldId)) return;
    const entry = column(target, fields, hidden, width);
    if (seen.has(entry.id)) return;
    seen.add(entry.id);
    chosen.push(entry);
  };
  if (display.columns !== undefined && display.columns.length > 0) {
    for (const entry of display.columns) {
      const target: Target | undefined =
        entry.fieldId !== undefined
          ? { fieldId: entry.fieldId }
          : entry.attribute !== undefined
            ? { attribute: entry.attribute }
            : undefined;
      if (target !== undefined) add(target, entry.hidden === true, entry.width);
    }
  } else {
    add({ attribute: 'statusId' }, false);
    for (const fieldId of collection.fieldIds) add({ fieldId }, false);
  }
  for (const attribute of COLUMN_ATTRIBUTES) add({ attribute }, true);
  for (const field of fields) add({ fieldId: field.id }, true);
  return chosen;
}

/** The columns shown, in order. */
export function visibleColumns(choices: readonly TableColumn[]): TableColumn[] {
  return choices.filter((choice) => !choice.hidden);
}

/** The display's `columns` of a picked order (hidden ones kept, so their place is remembered). */
export function toDisplayColumns(choices: readonly TableColumn[]): DisplayColumn[] {
  return choices.map((choice) => ({
    ...('fieldId' in choice.target
      ? { fieldId: choice.target.fieldId }
      : { attribute: choice.target.attribute }),
    ...(choice.hidden ? { hidden: true } : {}),
    ...(choice.width === undefined ? {} : { width: choice.width }),
  }));
}

/** Moves the column at `index` one place up (-1) or down (+1). */
export function moveColumn(
  choices: readonly TableColumn[],
  index: number,
  by: -1 | 1,
): TableColumn[] {
  const to = index + by;
  if (to < 0 || to >= choices.length) return [...choices];
  const next = [...choices];
  const [moved] = next.splice(index, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}
