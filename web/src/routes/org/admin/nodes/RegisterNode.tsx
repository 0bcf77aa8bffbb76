import { type FormEvent, useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import { useRegisterNode } from '../../../../api/nodes.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { useOrg } from '../../context.js';
import { type ShownOnce, ShownOnceDialog } from '../ShownOnceDialog.js';
import { nodeTokenShown } from './shown.js';

/** Registers a node by name; its token and agent command are shown once, in a dialog. */
export function RegisterNode() {
  const org = useOrg();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<ShownOnce | undefined>(undefined);
  const register = useRegisterNode(org.id);
  const refusal = register.isError
    ? refusalOf(register.error, { node_name_taken: 'name' })
    : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    register.mutate(
      { name: name.trim() },
      {
        onSuccess: (answer) => {
          setName('');
          setShown(nodeTokenShown(`${answer.node.name} is registered`, answer));
        },
      },
    );
  };
  return (
    <section
      aria-labelledby="register-node-title"
      className="rounded-xl border border-zinc-200 bg-white p-6 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <h2 id="register-node-title" className="mb-1 text-lg font-semibold">
        Register a node
      </h2>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        A machine with a container engine that runs workers. You get a token and the command that
        starts its agent, shown once.
      </p>
      <form onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start" noValidate>
        <div className="flex-1">
          <TextField
            label="Node name"
            required
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={refusal?.field === 'name' ? refusal.message : undefined}
          />
        </div>
        <Button type="submit" disabled={register.isPending} className="sm:mt-6">
          Register node
        </Button>
      </form>
      <div className="mt-3">
        <FormAlert message={refusal && refusal.field !== 'name' ? refusal.message : undefined} />
      </div>
      <ShownOnceDialog shown={shown} onClose={() => setShown(undefined)} />
    </section>
  );
}
