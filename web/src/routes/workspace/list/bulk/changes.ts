import type { BulkPatch } from '../../../../api/bulk.js';
import type { Field, Member, Status } from '../../../../api/registry.js';

/** A change a bulk edit can make to every selected card, with the values it may set. */
export interface BulkChange {
  /** Stable among the changes (`status`, `field:<id>`, `archive`). */
  id: string;
  label: string;
  values: Array<{ value: string; label: string }>;
  /** The patch that sets `value` (one of `values`). */
  patch: (value: string) => BulkPatch;
}

const CLEAR = '';

/**
 * What a bulk edit offers: the status, each select, checkbox and person
 * field (set or clear), and archiving. Text-like fields are left to the card.
 */
export function bulkChanges(
  statuses: readonly Status[],
  fields: readonly Field[],
  members: readonly Member[],
): BulkChange[] {
  const changes: BulkChange[] = [
    {
      id: 'status',
      label: 'Status',
      values: statuses.map((status) => ({ value: status.id, label: status.name })),
      patch: (value) => ({ statusId: value }),
    },
  ];
  for (const field of fields) {
    const set = (value: unknown): BulkPatch => ({ properties: { [field.key]: value } });
    const clear = { value: CLEAR, label: `No ${field.name.toLowerCase()}` };
    if (field.type === 'select') {
      changes.push({
        id: `field:${field.id}`,
        label: field.name,
        values: [
          ...(field.config.options ?? []).map((o) => ({ value: o.id, label: o.label })),
          clear,
        ],
        patch: (value) => set(value === CLEAR ? null : value),
      });
    } else if (field.type === 'checkbox') {
      changes.push({
        id: `field:${field.id}`,
        label: field.name,
        values: [
          { value: 'true', label: 'Checked' },
          { value: 'false', label: 'Not checked' },
        ],
        patch: (value) => set(value === 'true'),
      });
    } else if (field.type === 'person') {
      changes.push({
        id: `field:${field.id}`,
        label: field.name,
        values: [...members.map((m) => ({ value: m.userId, label: m.name })), clear],
        patch: (value) => set(value === CLEAR ? null : value),
      });
    }
  }
  changes.push({
    id: 'archive',
    label: 'Archive',
    values: [{ value: 'true', label: 'Archive the cards' }],
    patch: () => ({ archived: true }),
  });
  return changes;
}

/** The live count of a 409 `expected_count_mismatch` (its `details.count`). */
export function countOfMismatch(details: unknown): number | undefined {
  if (typeof details !== 'object' || details === null || !('count' in details)) return undefined;
  return typeof details.count === 'number' ? details.count : undefined;
}
