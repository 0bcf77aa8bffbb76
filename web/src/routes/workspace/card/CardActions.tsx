import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { deleteItem, duplicateItem, type ItemDetail } from '../../../api/items.js';
import { keys } from '../../../api/keys.js';
import { useCommands } from '../../../commands/registry.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { Menu } from '../../../components/Menu.js';
import { STATUS_CONTROL_ID } from './StatusSelect.js';

/** The id the `a` command focuses: the card's first people field. */
export const ASSIGN_CONTROL_ID = 'card-assign';

interface CardActionsProps {
  workspaceId: string;
  workspaceSlug: string;
  item: ItemDetail;
  canWrite: boolean;
  setArchived: (archived: boolean) => void;
  openCard: (key: string) => void;
  onDeleted: () => void;
  /** Said to the person after an action that shows nothing else ("Link copied"). */
  announce: (message: string) => void;
}

/** The card's menu (duplicate, archive or restore, copy link, delete) and its commands. */
export function CardActions(props: CardActionsProps) {
  const { workspaceId, item, canWrite } = props;
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const refreshLists = () =>
    client.invalidateQueries({ queryKey: keys.inWorkspace(workspaceId, 'items') });
  const duplicate = useMutation({
    mutationFn: () => duplicateItem(workspaceId, item.id),
    onSuccess: (copy) => props.openCard(copy.key),
    onError: (error) => props.announce(`Not duplicated: ${refusalOf(error).message}`),
    onSettled: refreshLists,
  });
  const remove = useMutation({
    mutationFn: () => deleteItem(workspaceId, item.id),
    onSuccess: () => {
      setConfirming(false);
      client.removeQueries({ queryKey: keys.item(workspaceId, item.key) });
      props.onDeleted();
    },
    onSettled: refreshLists,
  });
  const copyLink = () => {
    const link = `${window.location.origin}/app/${props.workspaceSlug}/${item.key}`;
    navigator.clipboard.writeText(link).then(
      () => props.announce('Link copied'),
      () => props.announce(`Copy this link: ${link}`),
    );
  };
  const focus = (id: string) => document.getElementById(id)?.focus();
  const archive = () => props.setArchived(!item.archived);
  useCommands([
    { id: 'card.copy-link', label: 'Copy link to card', group: 'Card', run: copyLink },
    ...(canWrite
      ? [
          {
            id: 'card.status',
            label: 'Change status',
            group: 'Card',
            shortcut: 's',
            run: () => focus(STATUS_CONTROL_ID),
          },
          {
            id: 'card.assign',
            label: 'Assign',
            group: 'Card',
            shortcut: 'a',
            run: () => focus(ASSIGN_CONTROL_ID),
          },
          {
            id: 'card.archive',
            label: item.archived ? 'Restore card' : 'Archive card',
            group: 'Card',
            run: archive,
          },
          {
            id: 'card.duplicate',
            label: 'Duplicate card',
            group: 'Card',
            run: () => duplicate.mutate(),
          },
          {
            id: 'card.delete',
            label: 'Delete card',
            group: 'Card',
            run: () => setConfirming(true),
          },
        ]
      : []),
  ]);
  return (
    <>
      <Menu
        label="Card actions"
        trigger={<span aria-hidden="true">•••</span>}
        actions={[
          { label: 'Copy link', onSelect: copyLink },
          ...(canWrite
            ? [
                { label: 'Duplicate', onSelect: () => duplicate.mutate() },
                { label: item.archived ? 'Restore' : 'Archive', onSelect: archive },
                { label: 'Delete…', onSelect: () => setConfirming(true), danger: true },
              ]
            : []),
        ]}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${item.key}?`}
        description="The card and all its sub-items are deleted for everyone. This cannot be undone."
        confirmLabel="Delete card"
        pending={remove.isPending}
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
