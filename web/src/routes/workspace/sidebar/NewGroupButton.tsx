import { useState } from 'react';
import { useCreateGroup } from '../../../api/lists.js';
import { useWorkspace } from '../context.js';
import { NameDialog } from './NameDialog.js';

/** Creates a sidebar group (at the end); lists are dragged into it. */
export function NewGroupButton({ className }: { className: string }) {
  const workspace = useWorkspace();
  const create = useCreateGroup(workspace.id);
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className={className} onClick={() => setOpen(true)}>
        + Group
      </button>
      <NameDialog
        open={open}
        onOpenChange={setOpen}
        title="New group"
        label="Group name"
        submitLabel="Create group"
        onSubmit={(name) => create.mutateAsync({ name })}
      />
    </>
  );
}
