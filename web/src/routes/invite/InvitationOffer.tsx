import type { components } from '../../api/schema.js';

type Preview = components['schemas']['InvitationPreview'];

/** The offer of an invitation: which workspace, for which address, with which role. */
export function InvitationOffer({ preview }: { preview: Preview }) {
  return (
    <dl className="mb-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      <dt className="text-zinc-600 dark:text-zinc-400">Workspace</dt>
      <dd className="font-medium">{preview.workspace.name}</dd>
      <dt className="text-zinc-600 dark:text-zinc-400">For</dt>
      <dd className="font-medium break-all">{preview.email}</dd>
      <dt className="text-zinc-600 dark:text-zinc-400">Role</dt>
      <dd className="font-medium capitalize">{preview.role}</dd>
      <dt className="text-zinc-600 dark:text-zinc-400">Expires</dt>
      <dd>{new Date(preview.expiresAt).toLocaleDateString()}</dd>
    </dl>
  );
}
