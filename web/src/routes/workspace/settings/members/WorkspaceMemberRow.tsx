import { refusalOf } from '../../../../api/errors.js';
import { type Member, useRemoveMember, useSetMemberRole } from '../../../../api/members.js';
import { MemberRow } from '../../../../components/members/MemberRow.js';
import { useWorkspace } from '../../context.js';
import { explainRefusal, grantableRoles, ROLE_LABELS, whyCannotManage } from './rules.js';

/**
 * A member of the workspace: role changed in place, removed after a
 * confirmation (oneself leaves below); an admin is told why an owner is not
 * theirs to manage.
 */
export function WorkspaceMemberRow({ member, isMe }: { member: Member; isMe: boolean }) {
  const workspace = useWorkspace();
  const setRole = useSetMemberRole(workspace.id);
  const remove = useRemoveMember(workspace.id);
  const reason = whyCannotManage(workspace.role, member.role);
  const refusal = setRole.isError ? refusalOf(setRole.error) : undefined;
  const removal = remove.isError ? refusalOf(remove.error) : undefined;
  return (
    <MemberRow
      userId={member.userId}
      name={member.name}
      email={member.email}
      isMe={isMe}
      role={member.role}
      labels={ROLE_LABELS}
      choices={reason === undefined ? grantableRoles(workspace.role) : undefined}
      reason={reason}
      showReason={workspace.role === 'admin' && member.role === 'owner'}
      changing={setRole.isPending}
      onRole={(role) => setRole.mutate({ email: member.email, role })}
      roleRefusal={refusal && explainRefusal(refusal.code, refusal.message)}
      removable={reason === undefined}
      removeDescription={`${member.name || member.email} loses access to ${workspace.name}. Their cards stay.`}
      removing={remove.isPending}
      removeRefusal={removal && explainRefusal(removal.code, removal.message)}
      onRemove={(done) => remove.mutate(member.userId, { onSuccess: done })}
      onRemoveAsked={() => remove.reset()}
    />
  );
}
