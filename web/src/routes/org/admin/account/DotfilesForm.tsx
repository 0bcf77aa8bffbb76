import { type FormEvent, useState } from 'react';
import { type UserMe, useUpdateMe } from '../../../../api/account.js';
import { refusalOf } from '../../../../api/errors.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';

/** The dotfiles repository: saved as typed; an empty field clears it (the API's PATCH rule). */
export function DotfilesForm({ me }: { me: UserMe }) {
  const [repo, setRepo] = useState(me.dotfilesRepo ?? '');
  const update = useUpdateMe();
  const refusal = update.isError ? refusalOf(update.error) : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty string is how the API is told to clear it.
    update.mutate(
      { dotfilesRepo: repo.trim() },
      { onSuccess: (saved) => setRepo(saved.dotfilesRepo ?? '') },
    );
  };
  return (
    <section
      aria-labelledby="dotfiles-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="dotfiles-title" className="text-lg font-semibold">
        Dotfiles
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Now:{' '}
        {me.dotfilesRepo === null ? (
          <span>none</span>
        ) : (
          <code className="break-all">{me.dotfilesRepo}</code>
        )}
      </p>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Dotfiles repository"
          value={repo}
          placeholder="https://github.com/you/dotfiles"
          hint="A git URL (https://, ssh://, git:// or user@host:path), cloned into each of your workers. Leave it empty and save to have none."
          onChange={(event) => setRepo(event.target.value)}
          error={refusal?.field === 'dotfilesRepo' ? refusal.message : undefined}
        />
        <FormAlert
          message={refusal && refusal.field !== 'dotfilesRepo' ? refusal.message : undefined}
        />
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={update.isPending}>
            Save dotfiles
          </Button>
          <span role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {update.isSuccess ? 'Saved.' : null}
          </span>
        </div>
      </form>
    </section>
  );
}
