import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Status, useDeleteStatus } from '../../../../api/statuses.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { useWorkspace } from '../../context.js';
import { EditStatusForm } from './EditStatusForm.js';

/** Why a status could not be deleted, and what to do about it. */
function explainDelete(code: string, message: string): string {
  if (code === 'status_in_use') {
    return 'Cards still have this status: give them another status first, then delete it.';
  }
  if (code === 'last_status') return 'A workspace keeps at least one status: create another first.';
  return message;
}

/** A status: its drag handle, color and name; edit and delete for admins, refusals under it. */
export function StatusRow({ status, editable }: { status: Status; editable: boolean }) {
  const workspace = useWorkspace();
  const sortable = useSortable({ id: status.id, disabled: !editable });
  const remove = useDeleteStatus(workspace.id);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const refusal = remove.isError ? refusalOf(remove.error) : undefined;
  const errorId = `status-${status.id}-error`;

  return (
    <li
      ref={sortable.setNodeRef}
      style={{
        transform: CSS.Translate.toString(sortable.transform),
        transition: sortable.transition,
      }}
      className={`rounded-lg border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-700 dark:bg-zinc-900 ${sortable.isDragging ? 'relative z-10 shadow-md' : ''}`}
    >
      <div className="flex items-center gap-3">
        {editable ? (
          <button
            type="button"
            aria-label={`Move ${status.name}`}
            className="cursor-grab touch-none rounded px-1 text-zinc-500 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-zinc-400 dark:hover:bg-zinc-800"
            {...sortable.attributes}
            {...sortable.listeners}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        ) : null}
        <span
          aria-hidden="true"
          className="size-3 shrink-0 rounded-full border border-zinc-300 dark:border-zinc-600"
          style={{ backgroundColor: status.color }}
        />
        <span className="flex-1 font-medium">{status.name}</span>
        {editable && !editing ? (
          <>
            <Button
              variant="quiet"
              className="px-3 py-1"
              aria-label={`Edit ${status.name}`}
              onClick={() => setEditing(true)}
            >
              Edit
            </Button>
            <Button
              variant="quiet"
              className="px-3 py-1"
              aria-label={`Delete ${status.name}`}
              aria-describedby={refusal ? errorId : undefined}
              onClick={() => {
                remove.reset();
                setConfirming(true);
              }}
            >
              Delete
            </Button>
          </>
        ) : null}
      </div>
      {refusal ? (
        <p id={errorId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
          {explainDelete(refusal.code, refusal.message)}
        </p>
      ) : null}
      {editing ? <EditStatusForm status={status} onDone={() => setEditing(false)} /> : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete the status “${status.name}”?`}
        description="Only a status no card has can be deleted."
        confirmLabel="Delete status"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(status.id, {
            onSettled: () => setConfirming(false),
          })
        }
      />
    </li>
  );
}
