import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { type CollectionView, useDeleteView, useUpdateView } from '../../../../api/lists.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { Menu } from '../../../../components/Menu.js';
import { NameDialog } from '../../sidebar/NameDialog.js';

const TAB =
  'block rounded-t-md border-b-2 border-transparent px-3 py-1.5 text-sm text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 aria-[current=page]:border-blue-700 aria-[current=page]:font-medium aria-[current=page]:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:aria-[current=page]:border-blue-400 dark:aria-[current=page]:text-zinc-100';

interface ViewTabsProps {
  workspaceId: string;
  workspaceSlug: string;
  collectionId: string;
  views: readonly CollectionView[];
  current: CollectionView | undefined;
  canEdit: boolean;
  /** Starts a new view of what is shown now (the "Save as new view" dialog). */
  onNewView: () => void;
  onDeleted: () => void;
}

/** The list's saved views as tabs (links, so a view has an address), with rename and delete. */
export function ViewTabs(props: ViewTabsProps) {
  const { workspaceId, workspaceSlug, collectionId, views, current, canEdit } = props;
  const path = { workspaceId, collectionId };
  const update = useUpdateView(path);
  const remove = useDeleteView(path);
  const [dialog, setDialog] = useState<'rename' | 'delete' | undefined>();
  const close = (open: boolean) => {
    if (open) return;
    remove.reset();
    setDialog(undefined);
  };
  return (
    <nav
      aria-label="Views"
      className="flex flex-wrap items-end gap-1 border-b border-zinc-200 dark:border-zinc-800"
    >
      <ul className="flex flex-wrap gap-1">
        {views.length === 0 ? (
          <li>
            <span aria-current="page" className={TAB}>
              All cards
            </span>
          </li>
        ) : null}
        {views.map((view) => (
          <li key={view.id}>
            <Link
              to="/$workspaceSlug/lists/$listId"
              params={{ workspaceSlug, listId: collectionId }}
              search={{ view: view.id }}
              aria-current={view.id === current?.id ? 'page' : undefined}
              className={TAB}
            >
              {view.name}
            </Link>
          </li>
        ))}
      </ul>
      {canEdit ? (
        <button type="button" onClick={props.onNewView} className={`${TAB} text-zinc-600`}>
          + View
        </button>
      ) : null}
      {canEdit && current !== undefined ? (
        <Menu
          label={`View ${current.name} actions`}
          trigger="⋯"
          actions={[
            { label: 'Rename view', onSelect: () => setDialog('rename') },
            { label: 'Delete view', onSelect: () => setDialog('delete'), danger: true },
          ]}
        />
      ) : null}
      {current === undefined ? null : (
        <>
          <NameDialog
            open={dialog === 'rename'}
            onOpenChange={close}
            title="Rename view"
            label="View name"
            submitLabel="Rename"
            initialName={current.name}
            onSubmit={(name) => update.mutateAsync({ id: current.id, name })}
          />
          <ConfirmDialog
            open={dialog === 'delete'}
            onOpenChange={close}
            title={`Delete the view ${current.name}?`}
            description="Only the saved view goes; the cards stay."
            confirmLabel="Delete view"
            pending={remove.isPending}
            error={remove.error === null ? undefined : refusalOf(remove.error).message}
            onConfirm={() =>
              remove.mutate(current.id, {
                onSuccess: () => {
                  setDialog(undefined);
                  props.onDeleted();
                },
              })
            }
          />
        </>
      )}
    </nav>
  );
}
