import { type FormEvent, useState } from 'react';
import {
  type Deployment,
  type SecretChange,
  type UpdateDeployment,
  useUpdateDeployment,
} from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';
import { EnvEditor, envObject, envRows, sameEnv } from './EnvEditor.js';
import { SecretsEditor } from './SecretsEditor.js';
import { MUTED } from './Section.js';

/** Only what changed: a cleared description is sent as "" (the API clears it), an emptied env as {}. */
function changes(
  deployment: Deployment,
  draft: { name: string; description: string; env: Record<string, string> },
  secrets: SecretChange[],
): UpdateDeployment {
  const body: UpdateDeployment = {};
  if (draft.name !== deployment.name) body.name = draft.name;
  if (draft.description !== (deployment.description ?? '')) body.description = draft.description;
  if (!sameEnv(draft.env, deployment.env)) body.env = draft.env;
  if (secrets.length > 0) body.secrets = secrets;
  return body;
}

/** Name, description, variables and write-only secrets of a deployment; Save sends only the changes. */
export function DeploymentSettings({ deployment }: { deployment: Deployment }) {
  const update = useUpdateDeployment(deployment.orgId, deployment.id);
  const [name, setName] = useState(deployment.name);
  const [description, setDescription] = useState(deployment.description ?? '');
  const [rows, setRows] = useState(envRows(deployment.env));
  const [secrets, setSecrets] = useState<SecretChange[]>([]);
  const body = changes(deployment, { name, description, env: envObject(rows) }, secrets);
  const dirty = Object.keys(body).length > 0;
  const refusal = update.error === null ? undefined : refusalOf(update.error);
  const on = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const discard = () => {
    setName(deployment.name);
    setDescription(deployment.description ?? '');
    setRows(envRows(deployment.env));
    setSecrets([]);
    update.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(body, {
      onSuccess: (saved) => {
        setName(saved.name);
        setDescription(saved.description ?? '');
        setRows(envRows(saved.env));
        setSecrets([]);
      },
    });
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Deployment settings">
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={on('name')}
      />
      <TextField
        label="Description"
        value={description}
        hint="Clearing it removes the description."
        onChange={(e) => setDescription(e.target.value)}
        error={on('description')}
      />
      <EnvEditor rows={rows} onChange={setRows} error={on('env')} />
      <SecretsEditor
        names={deployment.secrets.map((secret) => secret.name)}
        changes={secrets}
        onChange={setSecrets}
        error={on('secrets')}
      />
      <p className={MUTED} aria-live="polite">
        {dirty ? `Changed: ${Object.keys(body).join(', ')}` : 'No change to save.'}
      </p>
      <FormAlert
        message={refusal !== undefined && refusal.field === undefined ? refusal.message : undefined}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={!dirty || update.isPending}>
          Save
        </Button>
        <Button variant="quiet" disabled={!dirty} onClick={discard}>
          Discard
        </Button>
      </div>
    </form>
  );
}
