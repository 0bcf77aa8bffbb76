import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { spawnWorker } from '../../../../api/card-workers.js';
import { refusalOf } from '../../../../api/errors.js';
import { nodesQuery } from '../../../../api/nodes.js';
import { orgsQuery } from '../../../../api/orgs.js';
import { projectsQuery } from '../../../../api/projects.js';
import type { Worker } from '../../../../api/workers.js';
import { Button } from '../../../../components/Button.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { TextField } from '../../../../components/TextField.js';
import { LabelledSelect } from './LabelledSelect.js';
import { lastProject, rememberProject } from './lastProject.js';
import { spawnRefusal } from './refusal.js';

const NOTE = 'text-sm text-zinc-700 dark:text-zinc-300';
const LINK = 'font-medium text-blue-700 underline dark:text-blue-300';
const AUTOMATIC = '';

/**
 * Pick an organization the person is in, one of its projects, a node (or
 * automatic placement) and the branch, then spawn the worker. The
 * organization and project start at the ones the last worker came from.
 */
export function OpenWorkerForm(props: {
  defaultBranch: string;
  onOpened: (worker: Worker) => void;
  onCancel: () => void;
}) {
  const orgs = useQuery(orgsQuery);
  // Where the last worker was opened from, on this browser (the first of each list else).
  const [last] = useState(lastProject);
  const [orgChoice, setOrgChoice] = useState(last?.orgId ?? '');
  const [projectChoice, setProjectChoice] = useState(last?.projectId ?? '');
  const [nodeId, setNodeId] = useState(AUTOMATIC);
  const [branch, setBranch] = useState(props.defaultBranch);
  const org = orgs.data?.find((candidate) => candidate.id === orgChoice) ?? orgs.data?.[0];
  const orgId = org?.id ?? '';
  const projects = useQuery({ ...projectsQuery(orgId), enabled: orgId !== '' });
  const nodes = useQuery({ ...nodesQuery(orgId), enabled: orgId !== '' });
  const project =
    projects.data?.find((candidate) => candidate.id === projectChoice) ?? projects.data?.[0];
  const spawn = useMutation({
    mutationFn: () =>
      spawnWorker(orgId, project?.id ?? '', {
        branch: branch.trim(),
        ...(nodeId === AUTOMATIC ? {} : { nodeId }),
      }),
    onSuccess: (worker) => {
      rememberProject({ orgId, projectId: worker.projectId });
      props.onOpened(worker);
    },
  });
  const refusal = spawn.isError ? spawnRefusal(spawn.error) : undefined;

  if (orgs.isPending) return <p className={NOTE}>Loading your organizations…</p>;
  if (orgs.isError) return <FormAlert message={refusalOf(orgs.error).message} />;
  if (org === undefined) {
    return (
      <div className="flex flex-col gap-4">
        <p role="alert" className={NOTE}>
          You are not a member of any organization, so there is no project to open a worker from.
          Create an organization on the{' '}
          <Link to="/" className={LINK}>
            home page
          </Link>{' '}
          or ask to be added to one.
        </p>
        <Button variant="quiet" className="self-end" onClick={props.onCancel}>
          Close
        </Button>
      </div>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (project !== undefined) spawn.mutate();
  };
  const noProject = projects.isSuccess && project === undefined;
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <LabelledSelect
        label="Organization"
        value={orgId}
        options={(orgs.data ?? []).map((candidate) => ({
          value: candidate.id,
          label: candidate.name,
        }))}
        onChange={(value) => {
          setOrgChoice(value);
          setProjectChoice('');
          setNodeId(AUTOMATIC);
        }}
      />
      {projects.isPending ? <p className={NOTE}>Loading the projects of {org.name}…</p> : null}
      {projects.isError ? <FormAlert message={refusalOf(projects.error).message} /> : null}
      {noProject ? (
        <p role="alert" className={NOTE}>
          {org.name} has no project yet.{' '}
          <Link to="/orgs/$orgId/projects" params={{ orgId }} className={LINK}>
            Create one in {org.name}
          </Link>
          .
        </p>
      ) : null}
      {project === undefined ? null : (
        <LabelledSelect
          label="Project"
          value={project.id}
          options={(projects.data ?? []).map((candidate) => ({
            value: candidate.id,
            label: candidate.name,
          }))}
          onChange={setProjectChoice}
        />
      )}
      <LabelledSelect
        label="Node"
        value={nodeId}
        hint="Automatic places it on the online node with the fewest workers."
        options={[
          { value: AUTOMATIC, label: 'Automatic' },
          ...(nodes.data ?? []).map((node) => ({
            value: node.id,
            label: `${node.name} (${node.status})`,
            disabled: node.status !== 'online',
          })),
        ]}
        onChange={setNodeId}
      />
      <TextField
        label="Branch"
        value={branch}
        hint="Created from the default branch when the repository does not have it."
        onChange={(event) => setBranch(event.target.value)}
        error={refusal?.field === 'branch' ? refusal.message : undefined}
      />
      <FormAlert
        message={refusal !== undefined && refusal.field !== 'branch' ? refusal.message : undefined}
      />
      <div className="flex justify-end gap-2">
        <Button variant="quiet" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={spawn.isPending || project === undefined}>
          {spawn.isPending ? 'Opening…' : 'Open worker'}
        </Button>
      </div>
    </form>
  );
}
