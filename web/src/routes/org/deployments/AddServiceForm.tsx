import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useCreateService } from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';
import { type SourceDraft, SourceFields, sourceBody } from './SourceFields.js';
import { numberOf } from './serviceDraft.js';

/** A new service by name, source and port; its other settings are on its own page. */
export function AddServiceForm({ orgId, deploymentId }: { orgId: string; deploymentId: string }) {
  const create = useCreateService(orgId, deploymentId);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [port, setPort] = useState('');
  const [source, setSource] = useState<SourceDraft>({
    type: 'image',
    image: '',
    projectId: '',
    branch: '',
  });
  const refusal = create.error === null ? undefined : refusalOf(create.error);
  const on = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      {
        name,
        source: sourceBody(source),
        ...(port.trim() === '' ? {} : { port: numberOf(port) }),
      },
      {
        onSuccess: (service) =>
          navigate({
            to: '/orgs/$orgId/deployments/$deploymentId/services/$serviceId',
            params: { orgId, deploymentId, serviceId: service.id },
          }),
      },
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="New service">
      <TextField
        label="Service name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={on('name')}
      />
      <SourceFields orgId={orgId} source={source} onChange={setSource} error={on('source')} />
      <TextField
        label="Port"
        inputMode="numeric"
        value={port}
        hint="The container port the service answers HTTP on."
        onChange={(e) => setPort(e.target.value)}
        error={on('port')}
      />
      <FormAlert
        message={refusal !== undefined && refusal.field === undefined ? refusal.message : undefined}
      />
      <Button type="submit" className="self-start" disabled={create.isPending}>
        Add service
      </Button>
    </form>
  );
}
