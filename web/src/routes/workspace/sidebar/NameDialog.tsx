import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { Button } from '../../../components/Button.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';

interface NameDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  label: string;
  submitLabel: string;
  initialName?: string;
  /** Saves the name; a refusal is shown under the field and the name stays typed. */
  onSubmit: (name: string) => Promise<unknown>;
}

/** Asks for one name: a new group, or a new name for a list, group or view. */
export function NameDialog({
  open,
  onOpenChange,
  title,
  label,
  submitLabel,
  initialName = '',
  onSubmit,
}: NameDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title}>
      {open ? (
        <NameForm
          label={label}
          submitLabel={submitLabel}
          initialName={initialName}
          onSubmit={onSubmit}
          onDone={() => onOpenChange(false)}
        />
      ) : null}
    </Dialog>
  );
}

function NameForm({
  label,
  submitLabel,
  initialName,
  onSubmit,
  onDone,
}: Pick<NameDialogProps, 'label' | 'submitLabel' | 'onSubmit'> & {
  initialName: string;
  onDone: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<{ field: boolean; message: string } | undefined>();
  const [pending, setPending] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      await onSubmit(name.trim());
      onDone();
    } catch (caught) {
      const refusal = refusalOf(caught);
      setError({ field: refusal.field === 'name', message: refusal.message });
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <TextField
        label={label}
        value={name}
        required
        maxLength={100}
        autoComplete="off"
        error={error?.field ? error.message : undefined}
        onChange={(event) => setName(event.target.value)}
      />
      <FormAlert message={error?.field === false ? error.message : undefined} />
      <div className="flex justify-end gap-2">
        <Button variant="quiet" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || name.trim() === ''}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
