import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type StatusCategory, useCreateStatus } from '../../../../api/statuses.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { useWorkspace } from '../../context.js';
import { StatusFields } from './StatusFields.js';

/** A new status (name, category, color); it goes last in the order. */
export function CreateStatusForm() {
  const workspace = useWorkspace();
  const create = useCreateStatus(workspace.id);
  const [name, setName] = useState('');
  const [color, setColor] = useState('#6b7280');
  const [category, setCategory] = useState<StatusCategory>('unstarted');
  const refusal = create.isError
    ? refusalOf(create.error, { status_name_taken: 'name' })
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
    create.mutate({ name, color, category }, { onSuccess: () => setName('') });
  };

  return (
    <section
      aria-labelledby="create-status-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h3 id="create-status-title" className="mb-4 text-lg font-semibold">
        Create a status
      </h3>
      <form
        onSubmit={submit}
        className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start"
        noValidate
      >
        <div className="flex-1">
          <TextField
            label="Status name"
            name="status-name"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={nameError}
          />
        </div>
        <StatusFields
          category={category}
          color={color}
          onCategory={setCategory}
          onColor={setColor}
        />
        <Button type="submit" disabled={create.isPending} className="sm:mt-6">
          Create status
        </Button>
        <div className="basis-full">
          <FormAlert message={refusal && refusal.field !== 'name' ? refusal.message : undefined} />
        </div>
      </form>
    </section>
  );
}
