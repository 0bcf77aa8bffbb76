import {
  INPUT,
  ListField,
  RemoveRow,
  replaced,
  without,
} from '../../../../components/ListField.js';
import type { FeatureRow } from './draft.js';

interface FeaturesEditorProps {
  rows: FeatureRow[];
  changed: boolean;
  error: string | undefined;
  onChange: (rows: FeatureRow[]) => void;
}

/** Dev container features: an id and its options (`name=value` a line) a row. */
export function FeaturesEditor({ rows, changed, error, onChange }: FeaturesEditorProps) {
  return (
    <ListField
      legend="Features"
      hint="Dev container features by id, with options as name=value, one a line (true and false are booleans). Saved as a whole; remove every row and save to send {}."
      changed={changed}
      error={error}
      empty="No feature."
      count={rows.length}
      addLabel="Add feature"
      onAdd={() => onChange([...rows, { id: '', options: '' }])}
    >
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in a list being typed
        <li key={index} className="flex flex-wrap items-start gap-2 sm:flex-nowrap">
          <input
            aria-label={`Feature ${index + 1} id`}
            className={INPUT}
            value={row.id}
            placeholder="ghcr.io/devcontainers/features/node:1"
            onChange={(event) =>
              onChange(replaced(rows, index, { ...row, id: event.target.value }))
            }
          />
          <textarea
            aria-label={`Feature ${index + 1} options`}
            className={`${INPUT} min-h-9 sm:max-w-56`}
            rows={Math.max(1, row.options.split('\n').length)}
            value={row.options}
            placeholder="version=lts"
            onChange={(event) =>
              onChange(replaced(rows, index, { ...row, options: event.target.value }))
            }
          />
          <RemoveRow
            label={`Remove feature ${index + 1}`}
            onRemove={() => onChange(without(rows, index))}
          />
        </li>
      ))}
    </ListField>
  );
}
