import { type FormEvent, useState } from 'react';
import { Button } from './Button.js';
import { Dialog } from './Dialog.js';
import { FormAlert } from './FormAlert.js';
import { TextField } from './TextField.js';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  /** The button's words ("Delete workspace"). */
  confirmLabel: string;
  /** When set, the person types this text (a slug, a count) before confirming. */
  typeToConfirm?: string;
  /** The refusal of the last attempt, in words. */
  error?: string | undefined;
  pending?: boolean;
  onConfirm: () => void;
}

/** Asks before something that cannot be undone; optionally by typing a word. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  typeToConfirm,
  error,
  pending = false,
  onConfirm,
}: ConfirmDialogProps) {
  const [typed, setTyped] = useState('');
  const ready = typeToConfirm === undefined || typed === typeToConfirm;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) onConfirm();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped('');
        onOpenChange(next);
      }}
      title={title}
      description={description}
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        {typeToConfirm === undefined ? null : (
          <TextField
            label={`Type “${typeToConfirm}” to confirm`}
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
          />
        )}
        <FormAlert message={error} />
        <div className="flex justify-end gap-2">
          <Button variant="quiet" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={!ready || pending}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
