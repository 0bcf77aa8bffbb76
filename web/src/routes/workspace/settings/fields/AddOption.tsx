import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Field, useAddOption } from '../../../../api/fields.js';
import { Button } from '../../../../components/Button.js';
import { TextField } from '../../../../components/TextField.js';
import { OptionColorPicker } from './OptionColor.js';
import { nextColor } from './OptionsEditor.js';

/** Adds an option to a select field (POST .../options: merged on the server, so none is lost). */
export function AddOption({ workspaceId, field }: { workspaceId: string; field: Field }) {
  const [label, setLabel] = useState('');
  const [color, setColor] = useState(nextColor(field.config.options?.length ?? 0));
  const add = useAddOption(workspaceId);
  const refusal = add.isError ? refusalOf(add.error) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate(
      { fieldId: field.id, body: { label, color } },
      {
        onSuccess: (saved) => {
          setLabel('');
          setColor(nextColor(saved.config.options?.length ?? 0));
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-3" noValidate>
      <TextField
        label={`New option of ${field.name}`}
        value={label}
        onChange={(event) => setLabel(event.target.value)}
        error={refusal?.message}
      />
      <OptionColorPicker
        label={`Color of the new option of ${field.name}`}
        value={color}
        onChange={setColor}
      />
      <Button type="submit" variant="quiet" disabled={add.isPending}>
        Add option
      </Button>
    </form>
  );
}
