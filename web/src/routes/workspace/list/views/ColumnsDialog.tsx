import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import type { ViewDisplay } from '../../../../api/lists.js';
import { Button } from '../../../../components/Button.js';
import { Dialog } from '../../../../components/Dialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { QUIET } from '../editor/styles.js';
import { moveColumn, type TableColumn, toDisplayColumns } from '../table/columns.js';

interface ColumnsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Every column that may be shown, in the current order. */
  choices: readonly TableColumn[];
  /** Saves the picked order and hidden columns (into the view's display). */
  onSave: (columns: NonNullable<ViewDisplay['columns']>) => Promise<unknown>;
}

/** Picks the table's columns: shown or hidden, and their order (Move up, Move down). */
export function ColumnsDialog({ open, onOpenChange, choices, onSave }: ColumnsDialogProps) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Columns"
      description="The key and the title always show."
    >
      {open ? (
        <ColumnsForm choices={choices} onSave={onSave} onDone={() => onOpenChange(false)} />
      ) : null}
    </Dialog>
  );
}

function ColumnsForm({
  choices,
  onSave,
  onDone,
}: Pick<ColumnsDialogProps, 'choices' | 'onSave'> & { onDone: () => void }) {
  const [columns, setColumns] = useState(choices);
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const save = async () => {
    setPending(true);
    try {
      await onSave(toDisplayColumns(columns));
      onDone();
    } catch (caught) {
      setError(refusalOf(caught).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="flex flex-col gap-4">
      <ul className="flex max-h-80 flex-col gap-1 overflow-y-auto">
        {columns.map((column, index) => (
          <li key={column.id} className="flex items-center gap-2">
            <label className="flex flex-1 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={!column.hidden}
                className="accent-blue-700"
                onChange={(event) =>
                  setColumns(
                    columns.map((entry) =>
                      entry.id === column.id ? { ...entry, hidden: !event.target.checked } : entry,
                    ),
                  )
                }
              />
              {column.label}
            </label>
            <button
              type="button"
              aria-label={`Move ${column.label} up`}
              disabled={index === 0}
              onClick={() => setColumns(moveColumn(columns, index, -1))}
              className={`${QUIET} disabled:opacity-40`}
            >
              ↑
            </button>
            <button
              type="button"
              aria-label={`Move ${column.label} down`}
              disabled={index === columns.length - 1}
              onClick={() => setColumns(moveColumn(columns, index, 1))}
              className={`${QUIET} disabled:opacity-40`}
            >
              ↓
            </button>
          </li>
        ))}
      </ul>
      <FormAlert message={error} />
      <div className="flex justify-end gap-2">
        <Button variant="quiet" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={save} disabled={pending}>
          Save columns
        </Button>
      </div>
    </div>
  );
}
