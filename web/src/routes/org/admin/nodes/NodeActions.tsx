import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../../api/errors.js';
import {
  type Node,
  useDeleteNode,
  useDrainNode,
  useRotateNodeToken,
} from '../../../../api/nodes.js';
import { Button } from '../../../../components/Button.js';
import { ConfirmDialog } from '../../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../../components/FormAlert.js';
import { useOrg } from '../../context.js';
import { type ShownOnce, ShownOnceDialog } from '../ShownOnceDialog.js';
import { nodeTokenShown } from './shown.js';

type Asking = 'rotate' | 'drain' | 'delete' | undefined;

/**
 * Rotate the token (shown once), drain or let it take workers again, delete;
 * each asked first. `leaveOnDelete`: the node's own page goes back to the list.
 */
export function NodeActions({
  node,
  leaveOnDelete = false,
}: {
  node: Node;
  leaveOnDelete?: boolean;
}) {
  const org = useOrg();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<Asking>(undefined);
  const [shown, setShown] = useState<ShownOnce | undefined>(undefined);
  const rotate = useRotateNodeToken(org.id);
  const drain = useDrainNode(org.id);
  const remove = useDeleteNode(org.id);
  const close = () => setAsking(undefined);
  const ask = (what: Asking) => {
    rotate.reset();
    drain.reset();
    remove.reset();
    setAsking(what);
  };
  const undrainRefusal = drain.isError && asking === undefined ? refusalOf(drain.error) : undefined;

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-2">
        <Button
          variant="quiet"
          className="px-3 py-1"
          aria-label={`Rotate the token of ${node.name}`}
          onClick={() => ask('rotate')}
        >
          Rotate token
        </Button>
        {node.draining ? (
          <Button
            variant="quiet"
            className="px-3 py-1"
            aria-label={`Undrain ${node.name}`}
            disabled={drain.isPending}
            onClick={() => {
              drain.reset();
              drain.mutate({ nodeId: node.id, draining: false });
            }}
          >
            Undrain
          </Button>
        ) : (
          <Button
            variant="quiet"
            className="px-3 py-1"
            aria-label={`Drain ${node.name}`}
            onClick={() => ask('drain')}
          >
            Drain
          </Button>
        )}
        <Button
          variant="quiet"
          className="px-3 py-1"
          aria-label={`Delete ${node.name}`}
          onClick={() => ask('delete')}
        >
          Delete
        </Button>
      </div>
      <FormAlert message={undrainRefusal?.message} />
      <ConfirmDialog
        open={asking === 'rotate'}
        onOpenChange={(open) => (open ? undefined : close())}
        title={`Rotate the token of ${node.name}?`}
        description="The current token stops working at once and a connected agent is disconnected: restart it with the new token."
        confirmLabel="Rotate token"
        pending={rotate.isPending}
        error={rotate.isError ? refusalOf(rotate.error).message : undefined}
        onConfirm={() =>
          rotate.mutate(node.id, {
            onSuccess: (answer) => {
              close();
              setShown(nodeTokenShown(`The new token of ${answer.node.name}`, answer));
            },
          })
        }
      />
      <ConfirmDialog
        open={asking === 'drain'}
        onOpenChange={(open) => (open ? undefined : close())}
        title={`Drain ${node.name}?`}
        description="No new workers are placed on it; those running keep running. You can undo this."
        confirmLabel="Drain node"
        pending={drain.isPending}
        error={drain.isError ? refusalOf(drain.error).message : undefined}
        onConfirm={() => drain.mutate({ nodeId: node.id, draining: true }, { onSuccess: close })}
      />
      <ConfirmDialog
        open={asking === 'delete'}
        onOpenChange={(open) => (open ? undefined : close())}
        title={`Delete ${node.name}?`}
        description="Its token stops working and a connected agent is disconnected. A node that still holds workers cannot be deleted."
        confirmLabel="Delete node"
        pending={remove.isPending}
        error={remove.isError ? refusalOf(remove.error).message : undefined}
        onConfirm={() =>
          remove.mutate(node.id, {
            onSuccess: () => {
              close();
              if (leaveOnDelete)
                void navigate({ to: '/orgs/$orgId/nodes', params: { orgId: org.id } });
            },
          })
        }
      />
      <ShownOnceDialog shown={shown} onClose={() => setShown(undefined)} />
    </div>
  );
}
