import { refusalOf } from '../../../../api/errors.js';
import { Button } from '../../../../components/Button.js';

interface UnsavedBarProps {
  /** Whether there is a saved view to save into (else only "Save as new view"). */
  hasView: boolean;
  canSave: boolean;
  saving: boolean;
  error: unknown;
  onSave: () => void;
  onSaveAsNew: () => void;
  onDiscard: () => void;
}

/** Says that the view shown differs from the saved one, and offers to save or discard. */
export function UnsavedBar({
  hasView,
  canSave,
  saving,
  error,
  onSave,
  onSaveAsNew,
  onDiscard,
}: UnsavedBarProps) {
  return (
    <section
      aria-label="Unsaved changes"
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="mr-auto font-medium">
        Unsaved changes to this view
        {canSave ? '' : ' (viewers cannot save them; the address keeps them)'}
      </p>
      {error === null || error === undefined ? null : (
        <p role="alert" className="w-full text-red-700 dark:text-red-300">
          Not saved: {refusalOf(error).message}
        </p>
      )}
      {canSave && hasView ? (
        <Button onClick={onSave} disabled={saving} className="py-1">
          Save view
        </Button>
      ) : null}
      {canSave ? (
        <Button variant="quiet" onClick={onSaveAsNew} disabled={saving} className="py-1">
          Save as new view
        </Button>
      ) : null}
      <Button variant="quiet" onClick={onDiscard} className="py-1">
        Discard
      </Button>
    </section>
  );
}
