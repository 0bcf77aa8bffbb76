import { useState } from 'react';
import { ApiError } from '../../../../api/client.js';
import { refusalOf } from '../../../../api/errors.js';
import {
  type Field,
  useDeleteField,
  viewsInWords,
  viewsOfRefusal,
} from '../../../../api/fields.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';

/** The refusal in words; for a field in use, which saved views use it. */
function refusalInWords(error: unknown): string {
  if (error instanceof ApiError && error.code === 'field_in_use') {
    const views = viewsOfRefusal(error.details);
    if (views.length > 0) {
      return `This field cannot be deleted: ${viewsInWords(views)} ${views.length > 1 ? 'use' : 'uses'} it. Change or delete ${views.length > 1 ? 'those views' : 'that view'} first.`;
    }
  }
  return refusalOf(error).message;
}

/** Delete a field after confirmation; a refusal stays in the dialog, in words. */
export function DeleteField({ workspaceId, field }: { workspaceId: string; field: Field }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteField(workspaceId);
  return (
    <>
      <Button variant="quiet" className="px-3 py-1" onClick={() => setOpen(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) remove.reset();
          setOpen(next);
        }}
        title={`Delete the field ${field.name}?`}
        description="Its values are removed from every card, and it leaves every list. This cannot be undone."
        confirmLabel="Delete field"
        pending={remove.isPending}
        error={remove.isError ? refusalInWords(remove.error) : undefined}
        onConfirm={() => remove.mutate(field.id, { onSuccess: () => setOpen(false) })}
      />
    </>
  );
}
