import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Status, type StatusCategory, useUpdateStatus } from '../../../../api/statuses.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { useWorkspace } from '../../context.js';
import { StatusFields } from './StatusFields.js';

/** Rename, recolor or recategorize a status; a refusal keeps what was typed. */
export function EditStatusForm({ status, onDone }: { status: Status; onDone: () => void }) {
  const workspace = useWorkspace();
  const update = useUpdateStatus(workspace.id);
  const [name, setName] = useState(status.name);
  const [color, setColor] = useState(status.color);
  const [category, setCategory] = useState<StatusCategory>(status.category);
  const refusal = update.isError
    ? refusalOf(update.error, { status_name_taken: 'name' })
    : undefined;
  const [blank, setBlank] = useState(false);
  const nameError = blank
    ? 'The name cannot be blank.'
    : refusal?.field === 'name'
      ? refusal.message
      : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Checked here: the API's refusal of a blank name speaks of a pattern, not in words.
    setBlank(name.trim() === '');
    if (name.trim() === '') return;
    update.mutate(
      {
        statusId: status.id,
        ...(name !== status.name ? { name } : {}),
        ...(color !== status.color ? { color } : {}),
        ...(category !== status.category ? { category } : {}),
      },
      { onSuccess: onDone },
    );
  };

  return (
    <form
      onSubmit={submit}
      aria-label={`Edit ${status.name}`}
      className="mt-3 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start"
      noValidate
    >
      <div className="flex-1">
        <TextField
          label="Name"
          name="status-new-name"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
        />
      </div>
      <StatusFields category={category} color={color} onCategory={setCategory} onColor={setColor} />
      <div className="flex gap-2 sm:mt-6">
        <Button type="submit" disabled={update.isPending}>
          Save
        </Button>
        <Button variant="quiet" onClick={onDone}>
          Cancel
        </Button>
      </div>
      <div className="basis-full">
        <FormAlert message={refusal && refusal.field !== 'name' ? refusal.message : undefined} />
      </div>
    </form>
  );
}
