import { useQuery } from '@tanstack/react-query';
import { refusalOf } from '../../../../api/errors.js';
import { CATEGORIES, statusesQuery, useReorderStatuses } from '../../../../api/statuses.js';
import { useCommands } from '../../../../commands/registry.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { roleAtLeast, useWorkspace } from '../../context.js';
import { CATEGORY_LABELS } from '../../overview/CategoryCards.js';
import { CategoryList } from './CategoryList.js';
import { CreateStatusForm } from './CreateStatusForm.js';
import { moveWithinCategory } from './order.js';

/**
 * The statuses by category, in order. Admins create, rename, recolor,
 * reorder by drag (pointer or keyboard: one PUT of the whole order, shown at
 * once and put back when refused) and delete.
 */
export function StatusesSettings() {
  const workspace = useWorkspace();
  const statuses = useQuery(statusesQuery(workspace.id));
  const reorder = useReorderStatuses(workspace.id);
  const editable = roleAtLeast(workspace.role, 'admin');
  useCommands(
    editable
      ? [
          {
            id: 'statuses.create',
            label: 'Create a status',
            group: 'Statuses',
            run: () =>
              document.querySelector<HTMLInputElement>('input[name="status-name"]')?.focus(),
          },
        ]
      : [],
  );

  const move = (activeId: string, overId: string) => {
    if (statuses.data === undefined) return;
    const order = moveWithinCategory(statuses.data, activeId, overId);
    if (order !== undefined) reorder.mutate(order);
  };

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="statuses-title">
        <h2 id="statuses-title" className="mb-1 text-lg font-semibold">
          Statuses
        </h2>
        <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
          {editable
            ? 'Every card has one status. Drag a status by its handle, or focus the handle and use Space and the arrow keys, to change the order within its category.'
            : `Read-only: your role is ${workspace.role}; an admin or an owner manages statuses.`}
        </p>
        {statuses.isPending ? <p>Loading the statuses…</p> : null}
        {statuses.isError ? <FormAlert message={statuses.error.message} /> : null}
        {reorder.isError ? (
          <FormAlert message={`The order was not saved: ${refusalOf(reorder.error).message}`} />
        ) : null}
        <div className="flex flex-col gap-6">
          {statuses.data
            ? CATEGORIES.map((category) => (
                <CategoryList
                  key={category}
                  title={CATEGORY_LABELS[category]}
                  statuses={statuses.data.filter((status) => status.category === category)}
                  editable={editable}
                  onMove={move}
                />
              ))
            : null}
        </div>
      </section>
      {editable ? <CreateStatusForm /> : null}
    </div>
  );
}
