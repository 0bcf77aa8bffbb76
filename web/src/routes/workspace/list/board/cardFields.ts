import type { Field, Item } from '../../../../api/board.js';

/** A field's value on a card, in words; undefined when the card has none or it reads poorly small. */
export function fieldText(field: Field, item: Item): string | undefined {
  const value = item.properties[field.key];
  if (value === undefined || value === null || value === '') return undefined;
  const options = field.config.options ?? [];
  const label = (id: unknown) => options.find((option) => option.id === id)?.label;
  switch (field.type) {
    case 'select':
      return label(value);
    case 'multi_select':
      return Array.isArray(value)
        ? value.map(label).filter(Boolean).join(', ') || undefined
        : undefined;
    case 'checkbox':
      return value === true ? `${field.name}: yes` : undefined;
    case 'number':
    case 'text':
    case 'url':
    case 'email':
    case 'date':
      return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
    default:
      return undefined;
  }
}

const SHOWN_TYPES = new Set(['select', 'multi_select', 'date', 'number', 'checkbox']);

/**
 * The few fields a card shows under its title: the view's visible columns
 * when it names them, else the workspace's short fields; never the field
 * the board groups by (the column says it), at most three.
 */
export function cardFields(
  fields: readonly Field[],
  columns: ReadonlyArray<{ fieldId?: string; hidden?: boolean }> | undefined,
  groupFieldId: string | undefined,
): Field[] {
  const named = (columns ?? [])
    .filter((column) => column.hidden !== true && column.fieldId !== undefined)
    .map((column) => fields.find((field) => field.id === column.fieldId))
    .filter((field): field is Field => field !== undefined);
  const chosen = named.length > 0 ? named : fields.filter((field) => SHOWN_TYPES.has(field.type));
  return chosen.filter((field) => field.id !== groupFieldId).slice(0, 3);
}
