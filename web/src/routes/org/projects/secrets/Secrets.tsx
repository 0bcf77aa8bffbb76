import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type Project, useDeleteSecret } from '../../../../api/projects.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { orgRoleAtLeast, useOrg } from '../../context.js';
import { SecretForm } from './SecretForm.js';

type Secret = Project['secrets'][number];

/**
 * The project's secrets, write-only: names are listed, a value is sent once
 * (to add, or to replace by name) and never shown again; removed with a confirm.
 */
export function Secrets({ project }: { project: Project }) {
  const org = useOrg();
  const writer = orgRoleAtLeast(org.role, 'admin');
  const [replacing, setReplacing] = useState<string | undefined>();
  const [removing, setRemoving] = useState<Secret | undefined>();
  // Said outside the form: replacing one remounts the form, which would take the words with it.
  const [saved, setSaved] = useState<string | undefined>();
  const remove = useDeleteSecret(project.orgId, project.id);
  return (
    <section
      aria-labelledby="project-secrets-title"
      className="flex flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div>
        <h2 id="project-secrets-title" className="text-lg font-semibold">
          Secrets
        </h2>
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          Environment variables of every worker. Values are write-only: they are never shown, here
          or by the API. Secrets are not part of the configuration versions.
          {writer ? '' : ` Only an owner or an admin can change them; your role is ${org.role}.`}
        </p>
      </div>
      {project.secrets.length === 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">No secret.</p>
      ) : (
        <ul
          aria-label="Secret names"
          className="flex flex-col divide-y divide-zinc-200 dark:divide-zinc-700"
        >
          {project.secrets.map((secret) => (
            <li key={secret.id} className="flex flex-wrap items-center gap-3 py-2">
              <code className="font-mono text-sm font-medium">{secret.name}</code>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">
                value hidden · set {new Date(secret.updatedAt).toLocaleString()}
              </span>
              <span className="ml-auto flex gap-2">
                <Button
                  variant="quiet"
                  className="px-3 py-1"
                  aria-label={`Replace ${secret.name}`}
                  onClick={() => {
                    setSaved(undefined);
                    setReplacing(secret.name);
                  }}
                >
                  Replace
                </Button>
                <Button
                  variant="quiet"
                  className="px-3 py-1"
                  aria-label={`Remove ${secret.name}`}
                  onClick={() => {
                    remove.reset();
                    setRemoving(secret);
                  }}
                >
                  Remove
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <FormAlert
        message={
          remove.isError && removing === undefined ? refusalOf(remove.error).message : undefined
        }
      />
      <SecretForm
        key={replacing ?? ''}
        project={project}
        replacing={replacing}
        onDone={(name) => {
          setReplacing(undefined);
          setSaved(name);
        }}
      />
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        {saved === undefined ? null : `Saved the secret ${saved}.`}
      </p>
      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => {
          if (!open) setRemoving(undefined);
        }}
        title={`Remove the secret ${removing?.name ?? ''}?`}
        description="New workers will not have it; its value cannot be read back."
        confirmLabel="Remove secret"
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        pending={remove.isPending}
        onConfirm={() => {
          if (removing === undefined) return;
          remove.mutate(removing.id, { onSuccess: () => setRemoving(undefined) });
        }}
      />
    </section>
  );
}
