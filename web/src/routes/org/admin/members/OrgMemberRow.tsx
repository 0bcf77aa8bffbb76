import { refusalOf } from '../../../../api/errors.js';
import {
  type OrgMember,
  useChangeOrgMemberRole,
  useRemoveOrgMember,
} from '../../../../api/org-members.js';
import { MemberRow } from '../../../../components/members/MemberRow.js';
import { useOrg } from '../../context.js';
import {
  explainMemberRefusal,
  grantableOrgRoles,
  ORG_ROLE_LABELS,
  whyCannotManage,
} from './rules.js';

/** A member of the organization: role changed in place, removed after a confirmation. */
export function OrgMemberRow({ member, isMe }: { member: OrgMember; isMe: boolean }) {
  const org = useOrg();
  const change = useChangeOrgMemberRole(org.id);
  const remove = useRemoveOrgMember(org.id);
  const manages = whyCannotManage(org.role, member.role) === undefined;
  const roles = grantableOrgRoles(org.role);
  const refusal = change.isError ? refusalOf(change.error) : undefined;
  const removal = remove.isError ? refusalOf(remove.error) : undefined;
  return (
    <MemberRow
      userId={member.userId}
      name={member.name}
      email={member.email}
      isMe={isMe}
      role={member.role}
      labels={ORG_ROLE_LABELS}
      // The last owner keeps a choice with their own role in it (the refusal then explains).
      choices={
        manages ? (roles.includes(member.role) ? roles : [member.role, ...roles]) : undefined
      }
      changing={change.isPending}
      onRole={(role) => change.mutate({ userId: member.userId, role })}
      roleRefusal={refusal && explainMemberRefusal(refusal.code, refusal.message)}
      removable={manages}
      removeDescription={`${member.name || member.email} loses access to ${org.name}; their personal API keys there stop working.`}
      removing={remove.isPending}
      removeRefusal={removal && explainMemberRefusal(removal.code, removal.message)}
      onRemove={(done) => remove.mutate(member.userId, { onSuccess: done })}
      onRemoveAsked={() => remove.reset()}
    />
  );
}
