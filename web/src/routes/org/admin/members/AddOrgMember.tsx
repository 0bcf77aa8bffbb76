import { refusalOf } from '../../../../api/errors.js';
import { useAddOrgMember } from '../../../../api/org-members.js';
import { AddMemberSection } from '../../../../components/members/AddMemberSection.js';
import { useOrg } from '../../context.js';
import { explainMemberRefusal, grantableOrgRoles, ORG_ROLE_LABELS } from './rules.js';

/** Adds an existing account to the organization by its e-mail address, with a role. */
export function AddOrgMember() {
  const org = useOrg();
  const add = useAddOrgMember(org.id);
  const refusal = add.isError
    ? refusalOf(add.error, { account_not_found: 'email', already_member: 'email' })
    : undefined;
  const message = refusal ? explainMemberRefusal(refusal.code, refusal.message) : undefined;
  return (
    <AddMemberSection
      level="h2"
      intro="For someone who already has an account here."
      roles={grantableOrgRoles(org.role)}
      labels={ORG_ROLE_LABELS}
      pending={add.isPending}
      emailRefusal={refusal?.field === 'email' ? message : undefined}
      formRefusal={refusal && refusal.field !== 'email' ? message : undefined}
      added={add.data}
      onAdd={(email, role, done) => add.mutate({ email, role }, { onSuccess: done })}
    />
  );
}
