import { type FormEvent, useId, useState } from 'react';
import type { Refusal } from '../../../../api/errors.js';
import type { Project, UpdateProject } from '../../../../api/projects.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { StringListEditor } from '../../../../components/StringListEditor.js';
import { TextField } from '../../../../components/TextField.js';
import {
  changedFields,
  type Draft,
  type DraftField,
  draftOf,
  FIELD_LABELS,
  FIELDS,
  type LocalErrors,
  patchOf,
} from './draft.js';
import { FeaturesEditor } from './FeaturesEditor.js';
import { RepositoriesEditor } from './RepositoriesEditor.js';
import { UnsavedChanges } from './UnsavedChanges.js';

interface SettingsFormProps {
  project: Project;
  refusal: Refusal | undefined;
  pending: boolean;
  onSave: (body: UpdateProject, fields: string[]) => void;
  onEdit: () => void;
}

const isDraftField = (field: string | undefined): field is DraftField =>
  FIELDS.some((candidate) => candidate === field);

/** Every setting of the project, edited locally; Save sends only what changed (a PATCH). */
export function SettingsForm({ project, refusal, pending, onSave, onEdit }: SettingsFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(project));
  const [localErrors, setLocalErrors] = useState<LocalErrors>({});
  const descriptionId = useId();
  const changed = changedFields(project, draft);
  const { body } = patchOf(project, draft);
  const serverField = isDraftField(refusal?.field) ? refusal.field : undefined;
  const errorOf = (field: DraftField) =>
    localErrors[field] ?? (serverField === field ? refusal?.message : undefined);
  const set = <K extends DraftField>(field: K, value: Draft[K]) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setLocalErrors((current) => ({ ...current, [field]: undefined }));
    onEdit();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const patch = patchOf(project, draft);
    setLocalErrors(patch.errors);
    if (Object.keys(patch.errors).length > 0) return;
    onSave(
      patch.body,
      changed.map((field) => FIELD_LABELS[field].toLowerCase()),
    );
  };
  const isChanged = (field: DraftField) => changed.includes(field);

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4">
      <TextField
        label="Name"
        value={draft.name}
        required
        onChange={(event) => set('name', event.target.value)}
        error={errorOf('name')}
        hint={isChanged('name') ? 'Changed.' : 'Unique in the organization, whatever the case.'}
      />
      <div className="flex flex-col gap-1">
        <label htmlFor={descriptionId} className="text-sm font-medium">
          Description
        </label>
        <textarea
          id={descriptionId}
          aria-describedby={`${descriptionId}-hint`}
          className="min-h-20 rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 outline-none focus-visible:border-blue-600 focus-visible:ring-2 focus-visible:ring-blue-600/40 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
          value={draft.description}
          onChange={(event) => set('description', event.target.value)}
        />
        <p id={`${descriptionId}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {isChanged('description') && draft.description.trim() === ''
            ? 'Cleared: Save sends an empty description, which removes it.'
            : 'Free text; empty it and save to clear it.'}
        </p>
        {errorOf('description') ? (
          <p className="text-sm text-red-700 dark:text-red-300">{errorOf('description')}</p>
        ) : null}
      </div>
      <RepositoriesEditor
        rows={draft.repositories}
        changed={isChanged('repositories')}
        error={errorOf('repositories')}
        onChange={(rows) => set('repositories', rows)}
      />
      <FeaturesEditor
        rows={draft.features}
        changed={isChanged('features')}
        error={errorOf('features')}
        onChange={(rows) => set('features', rows)}
      />
      <StringListEditor
        legend="Extensions"
        hint="Editor extension ids (publisher.name, optionally @version), each once. Remove every row and save to send an empty list."
        itemLabel="Extension"
        placeholder="dbaeumer.vscode-eslint"
        addLabel="Add extension"
        empty="No extension."
        items={draft.extensions}
        changed={isChanged('extensions')}
        error={errorOf('extensions')}
        onChange={(items) => set('extensions', items)}
      />
      <StringListEditor
        legend="Forwarded ports"
        hint="Ports forwarded from each worker (1 to 65535), each once. Remove every row and save to send an empty list."
        itemLabel="Port"
        placeholder="3000"
        addLabel="Add port"
        empty="No forwarded port."
        inputMode="numeric"
        items={draft.forwardPorts}
        changed={isChanged('forwardPorts')}
        error={errorOf('forwardPorts')}
        onChange={(items) => set('forwardPorts', items)}
      />
      <FormAlert message={refusal && serverField === undefined ? refusal.message : undefined} />
      <UnsavedChanges
        fields={changed.map((field) => FIELD_LABELS[field])}
        body={body}
        pending={pending}
        onDiscard={() => {
          setDraft(draftOf(project));
          setLocalErrors({});
          onEdit();
        }}
      />
    </form>
  );
}
