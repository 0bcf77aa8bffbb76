import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../api/errors.js';
import { useCreateOrg } from '../../api/orgs.js';
import { Button } from '../../components/Button.js';
import { FormAlert } from '../../components/FormAlert.js';
import { TextField } from '../../components/TextField.js';

export const CREATE_ORG_ANCHOR = 'create-org-title';

/** Create an organization (its name) and open it; a refusal is said next to the name. */
export function CreateOrgForm() {
  const [name, setName] = useState('');
  const create = useCreateOrg();
  const navigate = useNavigate();
  const refusal = create.isError ? refusalOf(create.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name },
      { onSuccess: (org) => navigate({ to: '/orgs/$orgId', params: { orgId: org.id } }) },
    );
  };

  return (
    <section
      aria-labelledby={CREATE_ORG_ANCHOR}
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id={CREATE_ORG_ANCHOR} className="mb-4 text-lg font-semibold">
        Create an organization
      </h2>
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Organization name"
          name="name"
          required
          hint="Projects, workers, nodes, deployments and API keys belong to an organization."
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={refusal?.field === 'name' ? refusal.message : undefined}
        />
        <FormAlert message={refusal && refusal.field !== 'name' ? refusal.message : undefined} />
        <Button type="submit" disabled={create.isPending} className="self-start">
          Create organization
        </Button>
      </form>
    </section>
  );
}
