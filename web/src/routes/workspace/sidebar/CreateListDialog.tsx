import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { useCreateCollection } from '../../../api/lists.js';
import { Button } from '../../../components/Button.js';
import { Dialog } from '../../../components/Dialog.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';
import { useWorkspace } from '../context.js';

/** A key prefix suggested from a name: its letters and digits, upper case, at most 10. */
export function suggestedPrefix(name: string): string {
  const letters = name.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return letters.replace(/^[0-9]+/, '').slice(0, 3);
}

/** Creates a list (its name and the key prefix of its cards), then opens it. */
export function CreateListDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="New list"
      description="Cards of the list get keys such as ENG-12, from its prefix."
    >
      {open ? <CreateListForm onDone={() => onOpenChange(false)} /> : null}
    </Dialog>
  );
}

function CreateListForm({ onDone }: { onDone: () => void }) {
  const workspace = useWorkspace();
  const create = useCreateCollection(workspace.id);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [prefix, setPrefix] = useState<string | undefined>();
  const keyPrefix = prefix ?? suggestedPrefix(name);
  const refusal =
    create.error === null ? undefined : refusalOf(create.error, { key_prefix_taken: 'keyPrefix' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), keyPrefix },
      {
        onSuccess: (list) => {
          onDone();
          void navigate({
            to: '/$workspaceSlug/lists/$listId',
            params: { workspaceSlug: workspace.slug, listId: list.id },
          });
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <TextField
        label="Name"
        value={name}
        required
        maxLength={100}
        autoComplete="off"
        error={refusal?.field === 'name' ? refusal.message : undefined}
        onChange={(event) => setName(event.target.value)}
      />
      <TextField
        label="Key prefix"
        value={keyPrefix}
        required
        maxLength={10}
        autoComplete="off"
        hint="1 to 10 capital letters and digits, starting with a letter."
        error={refusal?.field === 'keyPrefix' ? refusal.message : undefined}
        onChange={(event) => setPrefix(event.target.value.toUpperCase())}
      />
      <FormAlert
        message={
          refusal !== undefined && refusal.field !== 'name' && refusal.field !== 'keyPrefix'
            ? refusal.message
            : undefined
        }
      />
      <div className="flex justify-end gap-2">
        <Button variant="quiet" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending || name.trim() === ''}>
          Create list
        </Button>
      </div>
    </form>
  );
}
