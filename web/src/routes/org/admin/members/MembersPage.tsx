import { useQuery } from '@tanstack/react-query';
import { orgMembersQuery } from '../../../../api/orgs.js';
import { meQuery } from '../../../../api/session.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { MembersTable } from '../../../../components/members/MembersTable.js';
import { orgRoleAtLeast, useOrg } from '../../context.js';
import { PageTitle } from '../PageTitle.js';
import { AddOrgMember } from './AddOrgMember.js';
import { LeaveOrg } from './LeaveOrg.js';
import { OrgMemberRow } from './OrgMemberRow.js';

/**
 * The organization's members and their roles. Admins and owners add accounts,
 * change roles and remove (an owner only by an owner); members read.
 * Anyone may leave, but the last owner.
 */
export function MembersPage() {
  const org = useOrg();
  const members = useQuery(orgMembersQuery(org.id));
  const me = useQuery(meQuery);
  const manages = orgRoleAtLeast(org.role, 'admin');
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <PageTitle title="Members">
        {manages
          ? 'Members work on projects; admins also manage members, secrets and keys; owners also manage owners.'
          : `Only admins and owners manage members; your role is ${org.role}.`}
      </PageTitle>
      {members.isPending ? <p>Loading the members…</p> : null}
      {members.isError ? <FormAlert message={members.error.message} /> : null}
      {members.data ? (
        <MembersTable caption={`Members of ${org.name}`}>
          {members.data.map((member) => (
            <OrgMemberRow
              key={member.userId}
              member={member}
              isMe={member.userId === me.data?.id}
            />
          ))}
        </MembersTable>
      ) : null}
      {manages ? <AddOrgMember /> : null}
      {me.data ? <LeaveOrg userId={me.data.id} /> : null}
    </div>
  );
}
