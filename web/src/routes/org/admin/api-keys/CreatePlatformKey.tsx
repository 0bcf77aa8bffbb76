import { type FormEvent, useId, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  type KeyOwnerType,
  type KeyScope,
  useCreatePlatformKey,
} from '../../../../api/platform-keys.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { orgRoleAtLeast, useOrg } from '../../context.js';
import { type ShownOnce, ShownOnceDialog } from '../ShownOnceDialog.js';
import { ScopePicker } from './ScopePicker.js';

const OWNER_TYPES: { value: KeyOwnerType; label: string }[] = [
  { value: 'user', label: 'Personal: acts as you, with your role, until you leave' },
  { value: 'org', label: 'Organization: a service account (admin role) that outlives you' },
];

/** Create a key: name, owner type (org only for admins and owners), scopes; the token shown once. */
export function CreatePlatformKey() {
  const org = useOrg();
  const ownerId = useId();
  const [name, setName] = useState('');
  const [ownerType, setOwnerType] = useState<KeyOwnerType>('user');
  const [scopes, setScopes] = useState<KeyScope[]>([]);
  const [shown, setShown] = useState<ShownOnce | undefined>(undefined);
  const create = useCreatePlatformKey(org.id);
  const refusal = create.isError ? refusalOf(create.error) : undefined;
  const owners = orgRoleAtLeast(org.role, 'admin')
    ? OWNER_TYPES
    : OWNER_TYPES.filter((owner) => owner.value === 'user');
  const known = ['name', 'scopes', 'ownerType'];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), ownerType, scopes },
      {
        onSuccess: (key) => {
          setName('');
          setScopes([]);
          setShown({
            title: `The token of ${key.name}`,
            values: [{ label: 'API key token', value: key.token }],
          });
        },
      },
    );
  };

  return (
    <section
      aria-labelledby="create-platform-key-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="create-platform-key-title" className="text-lg font-semibold">
        Create an API key
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Name"
          value={name}
          required
          hint="Who or what uses the key, to recognize it later."
          onChange={(event) => setName(event.target.value)}
          error={refusal?.field === 'name' ? refusal.message : undefined}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={ownerId} className="text-sm font-medium">
            Owner
          </label>
          <select
            id={ownerId}
            value={ownerType}
            onChange={(event) => {
              const owner = owners.find((candidate) => candidate.value === event.target.value);
              if (owner !== undefined) setOwnerType(owner.value);
            }}
            className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {owners.map((owner) => (
              <option key={owner.value} value={owner.value}>
                {owner.label}
              </option>
            ))}
          </select>
          {refusal?.field === 'ownerType' ? (
            <p className="text-sm text-red-700 dark:text-red-300">{refusal.message}</p>
          ) : null}
        </div>
        <ScopePicker
          value={scopes}
          onChange={setScopes}
          error={refusal?.field === 'scopes' ? refusal.message : undefined}
        />
        <FormAlert
          message={
            refusal !== undefined && !known.includes(refusal.field ?? '')
              ? refusal.message
              : undefined
          }
        />
        <Button type="submit" disabled={create.isPending} className="self-start">
          Create key
        </Button>
      </form>
      <ShownOnceDialog shown={shown} onClose={() => setShown(undefined)} />
    </section>
  );
}
