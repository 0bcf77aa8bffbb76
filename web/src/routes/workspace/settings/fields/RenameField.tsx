import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Field, useUpdateField } from '../../../../api/fields.js';
import { Button } from '../../../../components/Button.js';
import { TextField } from '../../../../components/TextField.js';

interface RenameFieldProps {
  workspaceId: string;
  field: Field;
  onDone: () => void;
}

/** The field's new name; a refusal keeps what was typed. */
export function RenameField({ workspaceId, field, onDone }: RenameFieldProps) {
  const [name, setName] = useState(field.name);
  const update = useUpdateField(workspaceId);
  const refusal = update.isError ? refusalOf(update.error) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate({ fieldId: field.id, body: { name } }, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2" noValidate>
      <TextField
        label={`New name of ${field.name}`}
        value={name}
        autoFocus
        onChange={(event) => setName(event.target.value)}
        error={refusal?.message}
      />
      <Button type="submit" disabled={update.isPending}>
        Save
      </Button>
      <Button variant="quiet" onClick={onDone}>
        Cancel
      </Button>
    </form>
  );
}
