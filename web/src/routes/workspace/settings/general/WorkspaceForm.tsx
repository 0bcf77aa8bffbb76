import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type UpdateWorkspace, useUpdateWorkspace } from '../../../../api/workspace-settings.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { useWorkspace } from '../../context.js';

type CoverLayout = NonNullable<UpdateWorkspace['coverLayout']>;

const LAYOUTS: ReadonlyArray<{ value: CoverLayout; label: string; hint: string }> = [
  { value: 'none', label: 'None', hint: 'No cover image.' },
  { value: 'banner', label: 'Banner', hint: 'A strip across the top.' },
  { value: 'full', label: 'Full', hint: 'The cover fills the page height.' },
];

/**
 * Name and cover layout. Below admin the values are shown read-only, with
 * the reason; a refusal is shown next to the field it names, keeping what was typed.
 */
export function WorkspaceForm({ editable }: { editable: boolean }) {
  const workspace = useWorkspace();
  const [name, setName] = useState(workspace.name);
  const [coverLayout, setCoverLayout] = useState<CoverLayout>(workspace.coverLayout);
  const update = useUpdateWorkspace(workspace.id);
  const [blank, setBlank] = useState(false);
  const refusal = update.isError ? refusalOf(update.error) : undefined;
  const nameError = blank
    ? 'The name cannot be blank.'
    : refusal?.field === 'name'
      ? refusal.message
      : undefined;
  const changed = name !== workspace.name || coverLayout !== workspace.coverLayout;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Checked here: the API's refusal of a blank name speaks of a pattern, not in words.
    setBlank(name.trim() === '');
    if (name.trim() === '') return;
    const body: UpdateWorkspace = {};
    if (name !== workspace.name) body.name = name;
    if (coverLayout !== workspace.coverLayout) body.coverLayout = coverLayout;
    update.mutate(body);
  };

  return (
    <section
      aria-labelledby="workspace-form-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h3 id="workspace-form-title" className="mb-1 text-lg font-semibold">
        Workspace
      </h3>
      {editable ? null : (
        <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
          Read-only: your role is {workspace.role}; an admin or an owner can change these.
        </p>
      )}
      <form onSubmit={submit} className="mt-4 flex flex-col gap-4" noValidate>
        <TextField
          label="Name"
          name="name"
          required
          readOnly={!editable}
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
        />
        <fieldset className="flex flex-col gap-2" disabled={!editable}>
          <legend className="mb-1 text-sm font-medium">Cover layout</legend>
          {LAYOUTS.map((layout) => (
            <label key={layout.value} className="flex items-start gap-2 text-sm">
              <input
                type="radio"
                name="coverLayout"
                value={layout.value}
                checked={coverLayout === layout.value}
                onChange={() => setCoverLayout(layout.value)}
                className="mt-0.5 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
              />
              <span>
                <span className="font-medium">{layout.label}</span>{' '}
                <span className="text-zinc-600 dark:text-zinc-400">{layout.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <FormAlert message={refusal && refusal.field !== 'name' ? refusal.message : undefined} />
        {editable ? (
          <div className="flex items-center gap-3">
            <Button type="submit" disabled={!changed || update.isPending}>
              Save
            </Button>
            {update.isSuccess && !changed ? (
              <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
                Saved.
              </p>
            ) : null}
          </div>
        ) : null}
      </form>
    </section>
  );
}
