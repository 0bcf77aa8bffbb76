import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { deploymentsQuery, useCreateDeployment } from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { StateBadge } from '../../../components/StateBadge.js';
import { TextField } from '../../../components/TextField.js';
import { useOrg } from '../context.js';
import { MUTED, ROW, Section } from './Section.js';

function CreateDeploymentForm({ orgId }: { orgId: string }) {
  const create = useCreateDeployment(orgId);
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const refusal = create.error === null ? undefined : refusalOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name, ...(description.trim() === '' ? {} : { description }) },
      {
        onSuccess: (deployment) =>
          navigate({
            to: '/orgs/$orgId/deployments/$deploymentId',
            params: { orgId, deploymentId: deployment.id },
          }),
      },
    );
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" aria-label="New deployment">
      <TextField
        label="Deployment name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={refusal?.field === 'name' ? refusal.message : undefined}
      />
      <TextField
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        error={refusal?.field === 'description' ? refusal.message : undefined}
      />
      <FormAlert
        message={refusal !== undefined && refusal.field === undefined ? refusal.message : undefined}
      />
      <Button type="submit" className="self-start" disabled={create.isPending}>
        Create deployment
      </Button>
    </form>
  );
}

/** The organization's deployments with their live states, and a form to create one. */
export function DeploymentsPage() {
  const org = useOrg();
  const deployments = useQuery(deploymentsQuery(org.id));
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <h1 className="text-2xl font-semibold">Deployments</h1>
      {deployments.error === null ? null : <FormAlert message={deployments.error.message} />}
      <Section id="deployments-list" title="All deployments">
        {deployments.data?.length === 0 ? <p className={MUTED}>No deployment yet.</p> : null}
        <ul>
          {deployments.data?.map((deployment) => (
            <li key={deployment.id}>
              <Link
                to="/orgs/$orgId/deployments/$deploymentId"
                params={{ orgId: org.id, deploymentId: deployment.id }}
                className={ROW}
              >
                <span className="min-w-0 truncate">
                  <span className="font-medium">{deployment.name}</span>{' '}
                  <span className={MUTED}>
                    {deployment.serviceCount}{' '}
                    {deployment.serviceCount === 1 ? 'service' : 'services'}
                    {deployment.description ? ` · ${deployment.description}` : ''}
                  </span>
                </span>
                <StateBadge state={deployment.state} />
              </Link>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="deployments-create" title="Create a deployment">
        <CreateDeploymentForm orgId={org.id} />
      </Section>
    </div>
  );
}
