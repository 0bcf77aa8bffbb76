import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { type Project, projectsQuery, useDeleteProject } from '../../../api/projects.js';
import { Button } from '../../../components/Button.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { orgRoleAtLeast, useOrg } from '../context.js';

/** Deleting the project (owners and admins), confirmed by typing its name; then the list. */
export function DeleteProject({ project }: { project: Project }) {
  const org = useOrg();
  const [open, setOpen] = useState(false);
  const remove = useDeleteProject(project.orgId, project.id);
  const navigate = useNavigate();
  const client = useQueryClient();
  const allowed = orgRoleAtLeast(org.role, 'admin');
  return (
    <section
      aria-labelledby="delete-project-title"
      className="rounded-xl border border-red-200 bg-white p-6 dark:border-red-900 dark:bg-zinc-900"
    >
      <h2 id="delete-project-title" className="mb-1 text-lg font-semibold">
        Delete the project
      </h2>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        Removes its settings, secrets and version history. A project that still has workers cannot
        be deleted: delete them first.
        {allowed ? '' : ` Only an owner or an admin can delete it; your role is ${org.role}.`}
      </p>
      <Button
        variant="danger"
        onClick={() => {
          remove.reset();
          setOpen(true);
        }}
      >
        Delete project…
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete “${project.name}”?`}
        description="Its settings, secrets and versions are removed for good."
        confirmLabel="Delete project"
        typeToConfirm={project.name}
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: async () => {
              setOpen(false);
              await navigate({ to: '/orgs/$orgId/projects', params: { orgId: org.id } });
              await client.invalidateQueries({ queryKey: projectsQuery(org.id).queryKey });
            },
          })
        }
      />
    </section>
  );
}
