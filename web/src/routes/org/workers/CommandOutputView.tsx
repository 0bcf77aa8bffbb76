import { useQuery } from '@tanstack/react-query';
import { workerCommandQuery } from '../../../api/worker-commands.js';
import type { WorkerRef } from '../../../api/workers.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { LogView } from '../../../components/LogView.js';

/** A background command's output so far (asked again while it runs). */
export function CommandOutputView({
  workerRef,
  commandId,
  label,
}: {
  workerRef: WorkerRef;
  commandId: string;
  label: string;
}) {
  const output = useQuery(workerCommandQuery(workerRef, commandId));
  if (output.isError) return <FormAlert message={output.error.message} />;
  if (output.data === undefined) return <p className="text-sm">Reading the output…</p>;
  const { stdout, stderr, droppedBytes } = output.data;
  return (
    <div className="flex flex-col gap-2">
      {droppedBytes > 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The first {droppedBytes} bytes were dropped: the last 1 MiB is kept.
        </p>
      ) : null}
      <LogView label={`Output of ${label}`} text={stdout} empty="No output yet." />
      {stderr === '' ? null : <LogView label={`Errors of ${label}`} text={stderr} />}
    </div>
  );
}
