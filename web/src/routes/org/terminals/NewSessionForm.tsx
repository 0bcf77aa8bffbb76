import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { useCreateTerminal, type WorkerRef } from '../../../api/terminals.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';

/** Creates a named session in the worker (a login shell), then shows it. */
export function NewSessionForm(props: { worker: WorkerRef; onCreated: (name: string) => void }) {
  const [name, setName] = useState('');
  const create = useCreateTerminal(props.worker);
  const refusal = create.isError ? refusalOf(create.error, { terminal_exists: 'name' }) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim() },
      {
        onSuccess: (session) => {
          setName('');
          props.onCreated(session.name);
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="New session" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        <TextField
          label="Session name"
          value={name}
          required
          maxLength={64}
          autoComplete="off"
          hint="Letters, digits, dots, dashes and underscores."
          error={refusal?.field === 'name' ? refusal.message : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <Button type="submit" disabled={create.isPending} className="mb-6">
          New session
        </Button>
      </div>
      <FormAlert
        message={refusal !== undefined && refusal.field !== 'name' ? refusal.message : undefined}
      />
    </form>
  );
}
