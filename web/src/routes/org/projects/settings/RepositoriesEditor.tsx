import {
  INPUT,
  ListField,
  RemoveRow,
  replaced,
  without,
} from '../../../../components/ListField.js';
import type { RepositoryRow } from './draft.js';

interface RepositoriesEditorProps {
  rows: RepositoryRow[];
  changed: boolean;
  error: string | undefined;
  onChange: (rows: RepositoryRow[]) => void;
}

/** The repositories cloned into each worker: a URL and an optional branch a row. */
export function RepositoriesEditor({ rows, changed, error, onChange }: RepositoriesEditorProps) {
  return (
    <ListField
      legend="Repositories"
      hint="Cloned into /workspaces of each worker, each URL once. Saved as a whole list; remove every row and save to send an empty list."
      changed={changed}
      error={error}
      empty="No repository."
      count={rows.length}
      addLabel="Add repository"
      onAdd={() => onChange([...rows, { url: '', branch: '' }])}
    >
      {rows.map((row, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in a list being typed
        <li key={index} className="flex flex-wrap items-center gap-2 sm:flex-nowrap">
          <input
            aria-label={`Repository ${index + 1} URL`}
            className={INPUT}
            value={row.url}
            placeholder="https://github.com/acme/app.git"
            onChange={(event) =>
              onChange(replaced(rows, index, { ...row, url: event.target.value }))
            }
          />
          <input
            aria-label={`Repository ${index + 1} branch`}
            className={`${INPUT} sm:max-w-48`}
            value={row.branch}
            placeholder="default branch"
            onChange={(event) =>
              onChange(replaced(rows, index, { ...row, branch: event.target.value }))
            }
          />
          <RemoveRow
            label={`Remove repository ${index + 1}`}
            onRemove={() => onChange(without(rows, index))}
          />
        </li>
      ))}
    </ListField>
  );
}
