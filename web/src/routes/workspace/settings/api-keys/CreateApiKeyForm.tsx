import { type FormEvent, useId, useState } from 'react';
import { type CreateWorkspaceApiKey, useCreateApiKey } from '../../../../api/api-keys.js';
import { refusalOf } from '../../../../api/errors.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { roleAtLeast, type Workspace } from '../../context.js';
import { ShownOnce } from './ShownOnce.js';

type Role = CreateWorkspaceApiKey['role'];
const ROLES: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];

function isRole(value: string): value is Role {
  return ROLES.some((role) => role === value);
}

/** Create a key (name, role up to the creator's); its token is shown once, with a copy button. */
export function CreateApiKeyForm({ workspace }: { workspace: Workspace }) {
  const roleId = useId();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [token, setToken] = useState<{ name: string; token: string } | undefined>(undefined);
  const create = useCreateApiKey(workspace.id);
  const refusal = create.isError
    ? refusalOf(create.error, { role_above_creator: 'role' })
    : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, role },
      {
        onSuccess: (key) => {
          setToken({ name: key.name, token: key.token });
          setName('');
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="create-key-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="create-key-title" className="text-lg font-semibold">
        Create an API key
      </h2>
      {token === undefined ? null : (
        <ShownOnce
          label={`The token of ${token.name}`}
          secret={token.token}
          onDismiss={() => setToken(undefined)}
        />
      )}
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Name"
          value={name}
          hint="Who or what uses the key, to recognize it later."
          onChange={(event) => setName(event.target.value)}
          error={refusal?.field === 'name' ? refusal.message : undefined}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={roleId} className="text-sm font-medium">
            Role
          </label>
          <select
            id={roleId}
            value={role}
            aria-describedby={`${roleId}-hint`}
            onChange={(event) => {
              if (isRole(event.target.value)) setRole(event.target.value);
            }}
            className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {ROLES.filter((candidate) => roleAtLeast(workspace.role, candidate)).map(
              (candidate) => (
                <option key={candidate} value={candidate}>
                  {candidate}
                </option>
              ),
            )}
          </select>
          <p id={`${roleId}-hint`} className="text-xs text-zinc-600 dark:text-zinc-400">
            No higher than yours ({workspace.role}). A key never manages members, keys or apps, and
            stops working if you leave the workspace. Keys do not expire: revoke them here.
          </p>
          {refusal?.field === 'role' ? (
            <p className="text-sm text-red-700 dark:text-red-300">{refusal.message}</p>
          ) : null}
        </div>
        <FormAlert
          message={
            refusal && refusal.field !== 'name' && refusal.field !== 'role'
              ? refusal.message
              : undefined
          }
        />
        <Button type="submit" disabled={create.isPending} className="self-start">
          Create key
        </Button>
      </form>
    </section>
  );
}
