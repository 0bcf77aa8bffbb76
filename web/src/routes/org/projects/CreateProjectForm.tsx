import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { useCreateProject } from '../../../api/projects.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';

/** A new project by name and description; a refusal shows next to the field it is about. */
export function CreateProjectForm({ orgId }: { orgId: string }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [blank, setBlank] = useState(false);
  const create = useCreateProject(orgId);
  const refusal = create.isError
    ? refusalOf(create.error, { project_name_taken: 'name' })
    : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setBlank(name.trim() === '');
    if (name.trim() === '') return;
    create.mutate(
      { name, ...(description.trim() === '' ? {} : { description }) },
      {
        onSuccess: () => {
          setName('');
          setDescription('');
        },
      },
    );
  };
  return (
    <section
      aria-labelledby="create-project-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="create-project-title" className="mb-4 text-lg font-semibold">
        New project
      </h2>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        <TextField
          label="Project name"
          value={name}
          required
          onChange={(event) => {
            setName(event.target.value);
            setBlank(false);
          }}
          error={
            blank
              ? 'The name cannot be blank.'
              : refusal?.field === 'name'
                ? refusal.message
                : undefined
          }
        />
        <TextField
          label="Project description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={refusal?.field === 'description' ? refusal.message : undefined}
          hint="Optional."
        />
        <FormAlert
          message={
            refusal && refusal.field !== 'name' && refusal.field !== 'description'
              ? refusal.message
              : undefined
          }
        />
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={create.isPending}>
            Create project
          </Button>
          {create.isSuccess ? (
            <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
              Created {create.data.name}.
            </p>
          ) : null}
        </div>
      </form>
    </section>
  );
}
