import { useQuery } from '@tanstack/react-query';
import { membersQuery } from '../../../../api/members.js';
import { meQuery } from '../../../../api/session.js';
import { useCommands } from '../../../../commands/registry.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { MembersTable } from '../../../../components/members/MembersTable.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { AddMemberForm } from './AddMemberForm.js';
import { Invitations } from './Invitations.js';
import { LeaveWorkspace } from './LeaveWorkspace.js';
import { WorkspaceMemberRow } from './WorkspaceMemberRow.js';

/**
 * The members and their roles. Admins and owners add, change and remove
 * (an owner's role only by an owner) and invite by link; anyone may leave.
 */
export function MembersSettings() {
  const workspace = useWorkspace();
  const members = useQuery(membersQuery(workspace.id));
  const me = useQuery(meQuery);
  const manages = roleAtLeast(workspace.role, 'admin');
  useCommands(
    manages
      ? [
          {
            id: 'members.add',
            label: 'Add a member',
            group: 'Members',
            run: () =>
              document.querySelector<HTMLInputElement>('input[name="member-email"]')?.focus(),
          },
          {
            id: 'members.invite',
            label: 'Invite by link',
            group: 'Members',
            run: () =>
              document.querySelector<HTMLInputElement>('input[name="invite-email"]')?.focus(),
          },
        ]
      : [],
  );
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="members-title">
        <h2 id="members-title" className="mb-1 text-lg font-semibold">
          Members
        </h2>
        <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
          {manages
            ? 'Viewers read; members edit cards; admins manage lists, fields, statuses and members; owners also manage owners and can delete the workspace.'
            : `Only admins and owners manage members; your role is ${workspace.role}.`}
        </p>
        {members.isPending ? <p>Loading the members…</p> : null}
        {members.isError ? <FormAlert message={members.error.message} /> : null}
        {members.data ? (
          <MembersTable caption={`Members of ${workspace.name}`}>
            {members.data.map((member) => (
              <WorkspaceMemberRow
                key={member.userId}
                member={member}
                isMe={member.userId === me.data?.id}
              />
            ))}
          </MembersTable>
        ) : null}
      </section>
      {manages ? <AddMemberForm /> : null}
      {manages ? <Invitations /> : null}
      {me.data ? <LeaveWorkspace userId={me.data.id} /> : null}
    </div>
  );
}
