import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { refusalOf } from '../../../api/errors.js';
import { movesOf, useDeleteWorker, useWorkerMove, type Worker } from '../../../api/workers.js';
import { Button } from '../../../components/Button.js';
import { ConfirmDialog } from '../../../components/ConfirmDialog.js';
import { FormAlert } from '../../../components/FormAlert.js';

/**
 * Start, stop and delete, each enabled only in the states that allow it;
 * delete asks first, then goes back to the project. The terminal link.
 */
export function WorkerActions({ worker }: { worker: Worker }) {
  const ref = { orgId: worker.orgId, projectId: worker.projectId, workerId: worker.id };
  const move = useWorkerMove(ref);
  const remove = useDeleteWorker(ref);
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const moves = movesOf(worker);
  const refusal = move.isError ? refusalOf(move.error).message : undefined;
  const deleteRefusal = remove.isError ? refusalOf(remove.error).message : undefined;

  const confirmDelete = () => {
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        void navigate({
          to: '/orgs/$orgId/projects/$projectId',
          params: { orgId: worker.orgId, projectId: worker.projectId },
        });
      },
    });
  };

  return (
    <section aria-label="Actions" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant="quiet"
          disabled={!moves.start || move.isPending}
          onClick={() => move.mutate('start')}
        >
          Start
        </Button>
        <Button
          variant="quiet"
          disabled={!moves.stop || move.isPending}
          onClick={() => move.mutate('stop')}
        >
          Stop
        </Button>
        <Button variant="danger" disabled={!moves.delete} onClick={() => setConfirming(true)}>
          Delete
        </Button>
        {worker.state === 'ready' ? (
          <Link
            to="/orgs/$orgId/projects/$projectId/workers/$workerId/terminal"
            params={ref}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:bg-blue-500 dark:text-zinc-950"
          >
            Open terminal
          </Link>
        ) : (
          <span className="text-sm text-zinc-600 dark:text-zinc-400">
            The terminal opens once the worker is ready.
          </span>
        )}
      </div>
      <FormAlert message={refusal} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${worker.name}?`}
        description="Its container and every file in it are removed; this cannot be undone."
        confirmLabel="Delete worker"
        error={deleteRefusal}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </section>
  );
}
