import type { UpdateProject } from '../../../../api/projects.js';
import { Button } from '../../../../components/Button.js';

interface UnsavedChangesProps {
  fields: string[];
  body: UpdateProject;
  pending: boolean;
  onDiscard: () => void;
}

/** What is not saved yet, what Save will send (only those fields), and Save / Discard. */
export function UnsavedChanges({ fields, body, pending, onDiscard }: UnsavedChangesProps) {
  const dirty = fields.length > 0;
  return (
    <div className="sticky bottom-0 flex flex-col gap-2 border-t border-zinc-200 bg-white pt-3 dark:border-zinc-700 dark:bg-zinc-900">
      <p aria-live="polite" className="text-sm text-zinc-800 dark:text-zinc-200">
        {dirty ? `Unsaved changes: ${fields.join(', ')}.` : 'No unsaved changes.'}
      </p>
      {dirty ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-zinc-700 dark:text-zinc-300">
            What Save sends (only the changed fields)
          </summary>
          <pre className="mt-1 overflow-x-auto rounded-md bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
            {`PATCH ${JSON.stringify(body, null, 2)}`}
          </pre>
        </details>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={!dirty || pending}>
          Save
        </Button>
        <Button variant="quiet" disabled={!dirty || pending} onClick={onDiscard}>
          Discard
        </Button>
      </div>
    </div>
  );
}
