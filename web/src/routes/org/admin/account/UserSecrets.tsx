import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  type UserSecret,
  useDeleteUserSecret,
  userSecretsQuery,
  useSetUserSecret,
} from '../../../../api/account.js';
import { refusalOf } from '../../../../api/errors.js';
import { formatMoment } from '../../../../api/events.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';

/** The person's secrets: names listed, values never shown; set (add or replace) and delete. */
export function UserSecrets() {
  const secrets = useQuery(userSecretsQuery);
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [deleting, setDeleting] = useState<UserSecret | undefined>(undefined);
  const set = useSetUserSecret();
  const remove = useDeleteUserSecret();
  const refusal = set.isError ? refusalOf(set.error) : undefined;
  const replacing = secrets.data?.some((secret) => secret.name === name.trim()) ?? false;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    set.mutate(
      { name: name.trim(), value },
      {
        onSuccess: () => {
          setName('');
          setValue('');
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="user-secrets-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="user-secrets-title" className="text-lg font-semibold">
        Secrets
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Environment variables handed to your workers. Values are stored encrypted and never shown
        again: set a name again to replace its value.
      </p>
      {secrets.isPending ? <p>Loading your secrets…</p> : null}
      {secrets.isError ? <FormAlert message={secrets.error.message} /> : null}
      {secrets.data?.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">No secret yet.</p>
      ) : null}
      <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 empty:hidden dark:divide-zinc-800 dark:border-zinc-700">
        {secrets.data?.map((secret) => (
          <li
            key={secret.id}
            aria-label={secret.name}
            className="flex flex-wrap items-center justify-between gap-2 px-4 py-2"
          >
            <span className="flex flex-col">
              <code className="font-medium">{secret.name}</code>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                Value hidden · set {formatMoment(secret.updatedAt)}
              </span>
            </span>
            <Button
              variant="quiet"
              className="px-3 py-1"
              aria-label={`Delete ${secret.name}`}
              onClick={() => {
                remove.reset();
                setDeleting(secret);
              }}
            >
              Delete
            </Button>
          </li>
        ))}
      </ul>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Secret name"
            value={name}
            autoComplete="off"
            hint="Letters, digits and _, not starting with a digit."
            onChange={(event) => setName(event.target.value)}
            error={refusal?.field === 'name' ? refusal.message : undefined}
          />
          <TextField
            label="Secret value"
            type="password"
            value={value}
            autoComplete="new-password"
            onChange={(event) => setValue(event.target.value)}
            error={refusal?.field === 'value' ? refusal.message : undefined}
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
          <Button type="submit" disabled={set.isPending}>
            {replacing ? 'Replace secret' : 'Add secret'}
          </Button>
          <span role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {set.isSuccess ? `${set.data.name} is saved.` : null}
          </span>
        </div>
      </form>
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => {
          if (!open) setDeleting(undefined);
        }}
        title={`Delete ${deleting?.name ?? 'the secret'}?`}
        description="Workers started from now on no longer get it. This cannot be undone."
        confirmLabel="Delete secret"
        pending={remove.isPending}
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        onConfirm={() => {
          if (deleting !== undefined)
            remove.mutate(deleting.id, { onSuccess: () => setDeleting(undefined) });
        }}
      />
    </section>
  );
}
