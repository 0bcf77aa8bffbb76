import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useRemoveMember } from '../../../../api/members.js';
import { forgetWorkspace } from '../../../../api/workspace-settings.js';
import { LeaveSection } from '../../../../components/LeaveSection.js';
import { useWorkspace } from '../../context.js';
import { explainRefusal } from './rules.js';

/** Leaving the workspace (removing oneself); the last owner's refusal is explained beside it. */
export function LeaveWorkspace({ userId }: { userId: string }) {
  const workspace = useWorkspace();
  const remove = useRemoveMember(workspace.id);
  const navigate = useNavigate();
  const client = useQueryClient();
  return (
    <LeaveSection
      kind="workspace"
      name={workspace.name}
      loses="You will no longer see its lists and cards."
      explain={explainRefusal}
      leave={async () => {
        await remove.mutateAsync(userId);
        await navigate({ to: '/' });
        forgetWorkspace(client, workspace.id);
      }}
    />
  );
}
