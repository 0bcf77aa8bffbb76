import { useQuery } from '@tanstack/react-query';
import { fieldsQuery } from '../../../../api/fields.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { CreateFieldForm } from './CreateFieldForm.js';
import { FieldRow } from './FieldRow.js';

/** The field registry: every field with its type and options; admins create, rename, delete. */
export function FieldsSettings() {
  const workspace = useWorkspace();
  const fields = useQuery(fieldsQuery(workspace.id));
  const canEdit = roleAtLeast(workspace.role, 'admin');
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="fields-title" className="flex flex-col gap-3">
        <h2 id="fields-title" className="text-xl font-semibold">
          Fields
        </h2>
        {canEdit ? null : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Only admins and owners can create, rename or delete fields; your role is{' '}
            {workspace.role}.
          </p>
        )}
        {fields.isPending ? <p>Loading…</p> : null}
        {fields.isError ? <p role="alert">{fields.error.message}</p> : null}
        {fields.data?.length === 0 ? (
          <p className="text-zinc-700 dark:text-zinc-300">No field yet.</p>
        ) : null}
        {fields.data !== undefined && fields.data.length > 0 ? (
          <ul className="flex flex-col divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-700 dark:bg-zinc-900">
            {fields.data.map((field) => (
              <FieldRow key={field.id} workspaceId={workspace.id} field={field} canEdit={canEdit} />
            ))}
          </ul>
        ) : null}
      </section>
      {canEdit ? <CreateFieldForm workspaceId={workspace.id} /> : null}
    </div>
  );
}
