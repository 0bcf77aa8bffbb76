import { refusalOf } from '../../../../api/errors.js';
import { useSetMemberRole } from '../../../../api/members.js';
import { AddMemberSection } from '../../../../components/members/AddMemberSection.js';
import { useWorkspace } from '../../context.js';
import { explainRefusal, grantableRoles, ROLE_LABELS } from './rules.js';

/** Adds an existing account to the workspace by its e-mail address, with a role. */
export function AddMemberForm() {
  const workspace = useWorkspace();
  const add = useSetMemberRole(workspace.id);
  const refusal = add.isError ? refusalOf(add.error, { account_not_found: 'email' }) : undefined;
  const message = refusal ? explainRefusal(refusal.code, refusal.message) : undefined;
  return (
    <AddMemberSection
      level="h3"
      intro="For someone who already has an account here. A known member gets the chosen role."
      roles={grantableRoles(workspace.role)}
      labels={ROLE_LABELS}
      inputName="member-email"
      pending={add.isPending}
      emailRefusal={refusal?.field === 'email' ? message : undefined}
      formRefusal={refusal && refusal.field !== 'email' ? message : undefined}
      added={add.data}
      onAdd={(email, role, done) => add.mutate({ email, role }, { onSuccess: done })}
    />
  );
}
