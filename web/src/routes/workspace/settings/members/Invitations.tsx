import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  invitationsQuery,
  type Role,
  useCreateInvitation,
  useRevokeInvitation,
} from '../../../../api/members.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { RoleSelect } from '../../../../components/members/RoleSelect.js';
import { TextField } from '../../../../components/TextField.js';
import { useWorkspace } from '../../context.js';
import { InvitationLink } from './InvitationLink.js';
import { grantableRoles, ROLE_LABELS } from './rules.js';

/**
 * Invitations by link: no e-mail is sent, so the link is shown once to be
 * copied and handed over; the pending ones are listed and can be revoked.
 */
export function Invitations() {
  const workspace = useWorkspace();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const create = useCreateInvitation(workspace.id);
  const revoke = useRevokeInvitation(workspace.id);
  const invitations = useQuery(invitationsQuery(workspace.id));
  const pending = invitations.data?.filter((invitation) => invitation.state === 'pending') ?? [];
  const refusal = create.isError ? refusalOf(create.error) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail('') });
  };

  return (
    <section
      aria-labelledby="invitations-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h3 id="invitations-title" className="mb-1 text-lg font-semibold">
        Invite by link
      </h3>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        For someone without an account: they register with the link, with this address. No e-mail is
        sent; copy the link and send it yourself. It works for 7 days.
      </p>
      <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
        <div className="flex-1">
          <TextField
            label="E-mail to invite"
            name="invite-email"
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={refusal?.field === 'email' ? refusal.message : undefined}
          />
        </div>
        <RoleSelect
          labels={ROLE_LABELS}
          roles={grantableRoles(workspace.role)}
          value={role}
          onChange={setRole}
        />
        <Button type="submit" disabled={create.isPending} className="sm:mt-6">
          Create invitation
        </Button>
      </form>
      <div className="mt-3">
        <FormAlert message={refusal && refusal.field !== 'email' ? refusal.message : undefined} />
      </div>
      {create.isSuccess ? (
        <InvitationLink email={create.data.email} token={create.data.token} />
      ) : null}
      <h4 className="mt-6 mb-2 font-medium">Pending invitations</h4>
      {invitations.isError ? <FormAlert message={invitations.error.message} /> : null}
      {invitations.isSuccess && pending.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">None.</p>
      ) : null}
      <ul className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-700">
        {pending.map((invitation) => (
          <li
            key={invitation.id}
            className="flex flex-wrap items-center justify-between gap-2 py-2"
          >
            <span className="text-sm">
              <span className="font-medium">{invitation.email}</span> as{' '}
              {ROLE_LABELS[invitation.role].toLowerCase()}
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                {invitation.tokenPrefix}… · expires{' '}
                {new Date(invitation.expiresAt).toLocaleDateString('en', { dateStyle: 'medium' })}
              </span>
            </span>
            <Button
              variant="quiet"
              className="px-3 py-1"
              aria-label={`Revoke the invitation of ${invitation.email}`}
              disabled={revoke.isPending && revoke.variables === invitation.id}
              onClick={() => revoke.mutate(invitation.id)}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      {revoke.isError ? <FormAlert message={refusalOf(revoke.error).message} /> : null}
    </section>
  );
}
