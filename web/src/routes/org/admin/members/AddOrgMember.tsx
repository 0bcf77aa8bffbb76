import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type OrgRole, useAddOrgMember } from '../../../../api/org-members.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { useOrg } from '../../context.js';
import { OrgRoleSelect } from './OrgRoleSelect.js';
import { explainMemberRefusal, grantableOrgRoles } from './rules.js';

/** Adds an existing account by its e-mail address, with a role. */
export function AddOrgMember() {
  const org = useOrg();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<OrgRole>('member');
  const add = useAddOrgMember(org.id);
  const refusal = add.isError
    ? refusalOf(add.error, { account_not_found: 'email', already_member: 'email' })
    : undefined;
  const message = refusal ? explainMemberRefusal(refusal.code, refusal.message) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };

  return (
    <section
      aria-labelledby="add-org-member-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="add-org-member-title" className="mb-1 text-lg font-semibold">
        Add a member
      </h2>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        For someone who already has an account here.
      </p>
      <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
        <div className="flex-1">
          <TextField
            label="E-mail of the account"
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={refusal?.field === 'email' ? message : undefined}
          />
        </div>
        <OrgRoleSelect roles={grantableOrgRoles(org.role)} value={role} onChange={setRole} />
        <Button type="submit" disabled={add.isPending} className="sm:mt-6">
          Add member
        </Button>
      </form>
      <div className="mt-3">
        <FormAlert message={refusal && refusal.field !== 'email' ? message : undefined} />
        {add.isSuccess ? (
          <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {add.data.name || add.data.email} is now {add.data.role === 'member' ? 'a' : 'an'}{' '}
            {add.data.role}.
          </p>
        ) : null}
      </div>
    </section>
  );
}
