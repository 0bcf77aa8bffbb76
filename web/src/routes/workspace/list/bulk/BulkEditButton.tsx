import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { bulkPreviewQuery } from '../../../../api/bulk.js';
import type { ViewDefinition } from '../../../../api/lists.js';
import { fieldsQuery, membersQuery, statusesQuery } from '../../../../api/registry.js';
import { Button } from '../../../../components/Button.js';
import { BulkEditDialog } from './BulkEditDialog.js';
import { bulkChanges } from './changes.js';

/** "Edit all N matching": the count of the view's selection, and the bulk edit it opens. */
export function BulkEditButton(props: {
  workspaceId: string;
  workspaceSlug: string;
  collectionId: string;
  definition: ViewDefinition;
}) {
  const { workspaceId, collectionId, definition } = props;
  const count = useQuery(bulkPreviewQuery(workspaceId, collectionId, definition));
  const fields = useQuery(fieldsQuery(workspaceId));
  const statuses = useQuery(statusesQuery(workspaceId));
  const members = useQuery(membersQuery(workspaceId));
  const [open, setOpen] = useState(false);
  if (count.data === undefined) return null;
  const changes = bulkChanges(statuses.data ?? [], fields.data ?? [], members.data ?? []);
  return (
    <>
      <Button
        variant="quiet"
        className="py-1"
        disabled={count.data.count === 0}
        onClick={() => setOpen(true)}
      >
        Edit all {count.data.count.toLocaleString('en-US')} matching
      </Button>
      <BulkEditDialog
        {...props}
        open={open}
        onOpenChange={setOpen}
        count={count.data.count}
        changes={changes}
      />
    </>
  );
}
