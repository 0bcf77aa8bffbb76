import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import {
  type Deployment,
  type DeploymentMove,
  useDeleteDeployment,
  useDeploymentMove,
} from '../../../api/deployments.js';
import { refusalOf } from '../../../api/errors.js';
import { Button } from '../../../components/Button.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../components/FormAlert.js';

const MOVES: { move: DeploymentMove; label: string }[] = [
  { move: 'start', label: 'Start all' },
  { move: 'stop', label: 'Stop all' },
  { move: 'deploy', label: 'Deploy all' },
];

/** Start, stop or deploy every service; delete the deployment (asked first). */
export function DeploymentActions({ deployment }: { deployment: Deployment }) {
  const moves = useDeploymentMove(deployment.orgId, deployment.id);
  const remove = useDeleteDeployment(deployment.orgId, deployment.id);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const moveRefusal = moves.error === null ? undefined : refusalOf(moves.error).message;
  const removeRefusal = remove.error === null ? undefined : refusalOf(remove.error).message;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {MOVES.map(({ move, label }) => (
          <Button
            key={move}
            variant="quiet"
            disabled={moves.isPending}
            onClick={() => moves.mutate(move)}
          >
            {label}
          </Button>
        ))}
        <Button variant="danger" onClick={() => setConfirming(true)}>
          Delete deployment
        </Button>
      </div>
      <FormAlert message={moveRefusal} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          if (!open) remove.reset();
        }}
        title={`Delete ${deployment.name}?`}
        description="Its services and secrets are deleted with it. A deployment that runs must be stopped first."
        confirmLabel="Delete deployment"
        typeToConfirm={deployment.name}
        error={removeRefusal}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () =>
              navigate({ to: '/orgs/$orgId/deployments', params: { orgId: deployment.orgId } }),
          })
        }
      />
    </div>
  );
}
