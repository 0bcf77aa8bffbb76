import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import type { Node } from '../../../api/nodes.js';
import { type SpawnWorker, useSpawnWorker } from '../../../api/workers.js';
import { Button } from '../../../components/Button.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { TextField } from '../../../components/TextField.js';

const AUTOMATIC = '';

/**
 * Spawn a worker: an optional name and branch, and a node (automatic
 * placement, or one chosen among the organization's and the shared ones,
 * each with its state). Opens the new worker's page.
 */
export function SpawnWorkerForm({
  orgId,
  projectId,
  nodes,
}: {
  orgId: string;
  projectId: string;
  nodes: readonly Node[];
}) {
  const nodeId = useId();
  const [name, setName] = useState('');
  const [branch, setBranch] = useState('');
  const [node, setNode] = useState(AUTOMATIC);
  const spawn = useSpawnWorker(orgId, projectId);
  const navigate = useNavigate();
  const refusal = spawn.isError
    ? refusalOf(spawn.error, { no_node_available: 'nodeId', node_unavailable: 'nodeId' })
    : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: SpawnWorker = {};
    if (name.trim() !== '') body.name = name.trim();
    if (branch.trim() !== '') body.branch = branch.trim();
    if (node !== AUTOMATIC) body.nodeId = node;
    spawn.mutate(body, {
      onSuccess: (worker) => {
        setName('');
        setBranch('');
        void navigate({
          to: '/orgs/$orgId/projects/$projectId/workers/$workerId',
          params: { orgId, projectId, workerId: worker.id },
        });
      },
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-labelledby="spawn-worker-title"
      className="flex flex-col gap-3 border-t border-zinc-200 pt-4 dark:border-zinc-700"
    >
      <h3 id="spawn-worker-title" className="font-semibold">
        Spawn a worker
      </h3>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          label="Worker name"
          value={name}
          hint="Optional: one is made up."
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          error={refusal?.field === 'name' ? refusal.message : undefined}
        />
        <TextField
          label="Branch"
          value={branch}
          hint="Optional: created from the default branch when missing."
          autoComplete="off"
          onChange={(event) => setBranch(event.target.value)}
          error={refusal?.field === 'branch' ? refusal.message : undefined}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor={nodeId} className="text-sm font-medium">
            Node
          </label>
          <select
            id={nodeId}
            value={node}
            aria-invalid={refusal?.field === 'nodeId' ? true : undefined}
            aria-describedby={refusal?.field === 'nodeId' ? `${nodeId}-error` : undefined}
            onChange={(event) => setNode(event.target.value)}
            className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 aria-invalid:border-red-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
          >
            <option value={AUTOMATIC}>Automatic placement</option>
            {nodes.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {candidate.name} ({candidate.status}
                {candidate.shared ? ', shared' : ''})
              </option>
            ))}
          </select>
          {refusal?.field === 'nodeId' ? (
            <p id={`${nodeId}-error`} className="text-sm text-red-700 dark:text-red-300">
              {refusal.message}
            </p>
          ) : null}
        </div>
      </div>
      <FormAlert message={refusal?.field === undefined ? refusal?.message : undefined} />
      <Button type="submit" className="self-start" disabled={spawn.isPending}>
        {spawn.isPending ? 'Spawning…' : 'Spawn worker'}
      </Button>
    </form>
  );
}
