import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Role, useSetMemberRole } from '../../../../api/members.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { useWorkspace } from '../../context.js';
import { RoleSelect } from './RoleSelect.js';
import { explainRefusal, grantableRoles } from './rules.js';

/** Adds an existing account by its e-mail address, with a role. */
export function AddMemberForm() {
  const workspace = useWorkspace();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const add = useSetMemberRole(workspace.id);
  const refusal = add.isError
    ? refusalOf(add.error, { account_not_found: 'email', not_found: 'email' })
    : undefined;
  // The route answers an unknown e-mail with `not_found` ("Account not found"), not `account_not_found`.
  const code = refusal?.code === 'not_found' ? 'account_not_found' : refusal?.code;
  const message = refusal && code !== undefined ? explainRefusal(code, refusal.message) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };

  return (
    <section
      aria-labelledby="add-member-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h3 id="add-member-title" className="mb-1 text-lg font-semibold">
        Add a member
      </h3>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        For someone who already has an account here. A known member gets the chosen role.
      </p>
      <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
        <div className="flex-1">
          <TextField
            label="E-mail of the account"
            name="member-email"
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={refusal?.field === 'email' ? message : undefined}
          />
        </div>
        <RoleSelect roles={grantableRoles(workspace.role)} value={role} onChange={setRole} />
        <Button type="submit" disabled={add.isPending} className="sm:mt-6">
          Add member
        </Button>
      </form>
      <div className="mt-3">
        <FormAlert message={refusal && refusal.field !== 'email' ? message : undefined} />
        {add.isSuccess ? (
          <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
            {add.data.name || add.data.email} is now {add.data.role === 'admin' ? 'an' : 'a'}{' '}
            {add.data.role}.
          </p>
        ) : null}
      </div>
    </section>
  );
}
