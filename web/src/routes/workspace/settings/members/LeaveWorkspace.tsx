import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { useRemoveMember } from '../../../../api/members.js';
import { forgetWorkspace } from '../../../../api/workspace-settings.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { useWorkspace } from '../../context.js';
import { explainRefusal } from './rules.js';

/** Leaving the workspace (removing oneself); the last owner's refusal is explained beside it. */
export function LeaveWorkspace({ userId }: { userId: string }) {
  const workspace = useWorkspace();
  const leave = useRemoveMember(workspace.id);
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const client = useQueryClient();
  const refusal = leave.isError ? refusalOf(leave.error) : undefined;

  const confirm = () =>
    leave.mutate(userId, {
      onSuccess: async () => {
        setConfirming(false);
        await navigate({ to: '/' });
        forgetWorkspace(client, workspace.id);
      },
      onError: () => setConfirming(false),
    });

  return (
    <section
      aria-labelledby="leave-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h3 id="leave-title" className="mb-1 text-lg font-semibold">
        Leave the workspace
      </h3>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        You lose access to {workspace.name} until someone adds you again.
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          variant="danger"
          aria-describedby={refusal ? 'leave-error' : undefined}
          onClick={() => {
            leave.reset();
            setConfirming(true);
          }}
        >
          Leave workspace…
        </Button>
        {refusal ? (
          <p id="leave-error" role="alert" className="text-sm text-red-700 dark:text-red-300">
            {explainRefusal(refusal.code, refusal.message)}
          </p>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Leave ${workspace.name}?`}
        description="You will no longer see its lists and cards."
        confirmLabel="Leave workspace"
        pending={leave.isPending}
        onConfirm={confirm}
      />
    </section>
  );
}
