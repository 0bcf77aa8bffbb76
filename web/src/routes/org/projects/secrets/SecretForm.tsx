import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Project, useSetSecret } from '../../../../api/projects.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';

interface SecretFormProps {
  project: Project;
  /** The name of the secret whose value is being replaced; undefined: a new one. */
  replacing: string | undefined;
  /** Called with the saved secret's name, or with nothing when replacing is cancelled. */
  onDone: (saved?: string) => void;
}

/** Adds a secret, or replaces one's value by name; the value is forgotten once sent. */
export function SecretForm({ project, replacing, onDone }: SecretFormProps) {
  const [name, setName] = useState(replacing ?? '');
  const [value, setValue] = useState('');
  const set = useSetSecret(project.orgId, project.id);
  const refusal = set.isError ? refusalOf(set.error) : undefined;
  const exists = project.secrets.some((secret) => secret.name === name.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(
      { name: name.trim(), value },
      {
        onSuccess: (secret) => {
          setName('');
          onDone(secret.name);
        },
        // Kept nowhere: the value leaves the page whether the API took it or not.
        onSettled: () => setValue(''),
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={replacing ? `Replace the value of ${replacing}` : 'Add or replace a secret'}
      className="flex flex-col gap-3 rounded-lg border border-zinc-200 p-3 dark:border-zinc-700"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Secret name"
          value={name}
          autoComplete="off"
          spellCheck={false}
          autoFocus={replacing !== undefined}
          onChange={(event) => setName(event.target.value)}
          error={refusal?.field === 'name' ? refusal.message : undefined}
          hint="Letters, digits and _, not starting with a digit."
        />
        <TextField
          label="Secret value"
          type="password"
          value={value}
          autoComplete="new-password"
          onChange={(event) => setValue(event.target.value)}
          error={refusal?.field === 'value' ? refusal.message : undefined}
          hint="Sent once; never shown again."
        />
      </div>
      <FormAlert
        message={
          refusal && refusal.field !== 'name' && refusal.field !== 'value'
            ? refusal.message
            : undefined
        }
      />
      <div className="flex items-center gap-3">
        <Button type="submit" disabled={set.isPending || name.trim() === ''}>
          {exists ? 'Replace secret' : 'Add secret'}
        </Button>
        {replacing ? (
          <Button variant="quiet" onClick={() => onDone()}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
