import { useNavigate, useParams } from '@tanstack/react-router';
import { refusalOf } from '../../../api/errors.js';
import {
  useDeleteCollection,
  useDeleteGroup,
  useRenameGroup,
  useUpdateCollection,
} from '../../../api/lists.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { useWorkspace } from '../context.js';
import { NameDialog } from './NameDialog.js';
import type { SidebarEntry } from './order.js';

export type EntryAction = { kind: 'rename' | 'delete'; entry: SidebarEntry };

/** Renaming or deleting a list or a group of the sidebar. */
export function EntryDialogs({
  action,
  onClose,
}: {
  action: EntryAction | undefined;
  onClose: () => void;
}) {
  const workspace = useWorkspace();
  const renameList = useUpdateCollection(workspace.id);
  const renameGroup = useRenameGroup(workspace.id);
  const deleteList = useDeleteCollection(workspace.id);
  const deleteGroup = useDeleteGroup(workspace.id);
  const navigate = useNavigate();
  const params = useParams({ strict: false });
  const entry = action?.entry;
  const name =
    entry === undefined ? '' : entry.kind === 'list' ? entry.collection.name : entry.group.name;
  const onOpenChange = (open: boolean) => {
    if (open) return;
    deleteList.reset();
    deleteGroup.reset();
    onClose();
  };
  const remove = () => {
    if (entry === undefined) return;
    if (entry.kind === 'group') {
      deleteGroup.mutate(entry.group.id, { onSuccess: onClose });
      return;
    }
    const listId = entry.collection.id;
    deleteList.mutate(listId, {
      onSuccess: () => {
        onClose();
        // The list shown is gone: back to the workspace's overview.
        if (params.listId === listId) {
          void navigate({ to: '/$workspaceSlug', params: { workspaceSlug: workspace.slug } });
        }
      },
    });
  };
  const deleteError = deleteList.error ?? deleteGroup.error;
  return (
    <>
      <NameDialog
        open={action?.kind === 'rename'}
        onOpenChange={onOpenChange}
        title={entry?.kind === 'group' ? 'Rename group' : 'Rename list'}
        label="Name"
        submitLabel="Rename"
        initialName={name}
        onSubmit={(newName) =>
          entry?.kind === 'group'
            ? renameGroup.mutateAsync({ id: entry.group.id, name: newName })
            : entry?.kind === 'list'
              ? renameList.mutateAsync({ id: entry.collection.id, name: newName })
              : Promise.resolve()
        }
      />
      <ConfirmDialog
        open={action?.kind === 'delete'}
        onOpenChange={onOpenChange}
        title={entry?.kind === 'group' ? `Delete the group ${name}?` : `Delete the list ${name}?`}
        description={
          entry?.kind === 'group'
            ? 'Its lists stay, without a group.'
            : 'Its views and the cards whose home it is are deleted with it.'
        }
        confirmLabel={entry?.kind === 'group' ? 'Delete group' : 'Delete list'}
        error={deleteError === null ? undefined : refusalOf(deleteError).message}
        pending={deleteList.isPending || deleteGroup.isPending}
        onConfirm={remove}
      />
    </>
  );
}
