import { useNavigate } from '@tanstack/react-router';
import { useRemoveOrgMember } from '../../../../api/org-members.js';
import { LeaveSection } from '../../../../components/LeaveSection.js';
import { useOrg } from '../../context.js';
import { explainMemberRefusal } from './rules.js';

/** Leaving the organization (removing oneself); the last owner's refusal is explained beside it. */
export function LeaveOrg({ userId }: { userId: string }) {
  const org = useOrg();
  const remove = useRemoveOrgMember(org.id);
  const navigate = useNavigate();
  return (
    <LeaveSection
      kind="organization"
      name={org.name}
      loses="You will no longer see its projects, workers and deployments; your API keys for it stop working."
      explain={explainMemberRefusal}
      leave={async () => {
        await remove.mutateAsync(userId);
        await navigate({ to: '/' });
      }}
    />
  );
}
