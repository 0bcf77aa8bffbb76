import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { forgetWorkspace, useDeleteWorkspace } from '../../../../api/workspace-settings.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { roleAtLeast, useWorkspace } from '../../context.js';

/** Deleting the workspace (owners), confirmed by typing its slug; then the list of workspaces. */
export function DeleteWorkspace() {
  const workspace = useWorkspace();
  const [open, setOpen] = useState(false);
  const remove = useDeleteWorkspace(workspace.id);
  const navigate = useNavigate();
  const client = useQueryClient();
  const owner = roleAtLeast(workspace.role, 'owner');

  const confirm = () =>
    remove.mutate(workspace.slug, {
      onSuccess: async () => {
        setOpen(false);
        // Leave the workspace's screens before it disappears from the cache they read.
        await navigate({ to: '/' });
        forgetWorkspace(client, workspace.id);
      },
    });

  return (
    <section
      aria-labelledby="delete-workspace-title"
      className="rounded-xl border border-red-200 bg-white p-6 dark:border-red-900 dark:bg-zinc-900"
    >
      <h3 id="delete-workspace-title" className="mb-1 text-lg font-semibold">
        Delete the workspace
      </h3>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        Removes every list, card, field, status, view, member, key, webhook, file and the activity
        log. This cannot be undone.
      </p>
      {owner ? null : (
        <p id="delete-workspace-reason" className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
          Only an owner can delete the workspace; your role is {workspace.role}.
        </p>
      )}
      <Button
        variant="danger"
        disabled={!owner}
        aria-describedby={owner ? undefined : 'delete-workspace-reason'}
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        Delete workspace…
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete “${workspace.name}”?`}
        description="Everything the workspace holds is removed for good."
        confirmLabel="Delete workspace"
        typeToConfirm={workspace.slug}
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        pending={remove.isPending}
        onConfirm={confirm}
      />
    </section>
  );
}
