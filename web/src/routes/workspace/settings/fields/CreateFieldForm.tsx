import { type FormEvent, useId, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  FIELD_TYPE_LABELS,
  FIELD_TYPES,
  type FieldType,
  hasOptions,
  isFieldType,
  keyFromName,
  useCreateField,
} from '../../../../api/fields.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { type DraftOption, OptionsEditor } from './OptionsEditor.js';

/** Create a field: name, key (derived from the name until edited), type, and options for selects. */
export function CreateFieldForm({ workspaceId }: { workspaceId: string }) {
  const typeId = useId();
  const [name, setName] = useState('');
  const [key, setKey] = useState<string | undefined>(undefined);
  const [type, setType] = useState<FieldType>('text');
  const [options, setOptions] = useState<DraftOption[]>([]);
  const create = useCreateField(workspaceId);
  const refusal = create.isError
    ? refusalOf(create.error, {
        key_taken: 'key',
        duplicate_option: 'config',
        too_many_options: 'config',
        invalid_config: 'config',
      })
    : undefined;
  const fieldError = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const effectiveKey = key ?? keyFromName(name);
  // A refusal not shown next to its input is shown above the button.
  const placed =
    refusal?.field === 'name' ||
    refusal?.field === 'key' ||
    (refusal?.field === 'config' && hasOptions(type));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const config = hasOptions(type)
      ? { options: options.map((option) => ({ label: option.label, color: option.color })) }
      : undefined;
    create.mutate(
      { name, key: effectiveKey, type, ...(config === undefined ? {} : { config }) },
      {
        onSuccess: () => {
          setName('');
          setKey(undefined);
          setOptions([]);
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="create-field-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="create-field-title" className="mb-4 text-lg font-semibold">
        Create a field
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Name"
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={fieldError('name')}
          />
          <TextField
            label="Key"
            value={effectiveKey}
            hint="The property name on cards in the API; it never changes."
            onChange={(event) => setKey(event.target.value)}
            error={fieldError('key')}
          />
          <div className="flex flex-col gap-1">
            <label htmlFor={typeId} className="text-sm font-medium">
              Type
            </label>
            <select
              id={typeId}
              value={type}
              onChange={(event) => {
                if (isFieldType(event.target.value)) setType(event.target.value);
              }}
              className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
            >
              {FIELD_TYPES.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {FIELD_TYPE_LABELS[candidate]}
                </option>
              ))}
            </select>
          </div>
        </div>
        {hasOptions(type) ? (
          <OptionsEditor options={options} onChange={setOptions} error={fieldError('config')} />
        ) : null}
        <FormAlert message={refusal !== undefined && !placed ? refusal.message : undefined} />
        <Button type="submit" disabled={create.isPending} className="self-start">
          Create field
        </Button>
      </form>
    </section>
  );
}
