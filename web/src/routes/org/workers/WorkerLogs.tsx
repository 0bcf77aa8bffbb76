import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { type WorkerRef, workerLogsQuery } from '../../../api/workers.js';
import { Button } from '../../../components/Button.js';
import { LogView, useLogText } from '../../../components/LogView.js';
import { type Frame, useFrames } from '../../../live/useFrames.js';

const TAILS = [100, 500, 2000] as const;

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** The socket's state in words. */
function followWords(state: ReturnType<typeof useFrames>['state'], ended: boolean): string {
  if (ended) return 'The log ended (the container stopped).';
  if (state.status === 'connecting') return 'Connecting…';
  if (state.status === 'open') return 'Following: new lines appear as they are written.';
  return state.reason === '' ? 'The connection closed.' : `The connection closed: ${state.reason}`;
}

/** Followed: the last lines, then every new one, over the worker's log socket. */
function FollowedLog({ workerId, tail }: { workerId: string; tail: number }) {
  const { text, append } = useLogText();
  const [ended, setEnded] = useState(false);
  const { state } = useFrames(
    `/api/workers/${workerId}/terminal?mode=logs&tail=${tail}`,
    (frame: Frame) => {
      if (frame.type === 'output' && typeof frame.data === 'string') append(bytesOf(frame.data));
      if (frame.type === 'end') setEnded(true);
    },
  );
  return (
    <>
      <p role="status" className="text-sm text-zinc-700 dark:text-zinc-300">
        {followWords(state, ended)}
      </p>
      <LogView label="Container logs" text={text} empty="No output yet." />
    </>
  );
}

/** The last lines the container printed; "Follow" then shows new ones as they come. */
function TailedLog({ workerRef, tail }: { workerRef: WorkerRef; tail: number }) {
  const logs = useQuery(workerLogsQuery(workerRef, tail));
  return (
    <>
      <Button
        variant="quiet"
        className="self-start"
        disabled={logs.isFetching}
        onClick={() => void logs.refetch()}
      >
        Refresh logs
      </Button>
      {logs.error === null ? null : <p role="alert">{logs.error.message}</p>}
      <LogView label="Container logs" text={logs.data ?? ''} empty="No output yet." />
    </>
  );
}

/** The container's output: its last lines, and followed live on demand. */
export function WorkerLogs({ workerRef, running }: { workerRef: WorkerRef; running: boolean }) {
  const tailId = useId();
  const [tail, setTail] = useState<number>(TAILS[0]);
  const [following, setFollowing] = useState(false);
  useEffect(() => {
    if (!running) setFollowing(false);
  }, [running]);
  return (
    <section
      aria-labelledby="worker-logs"
      className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-4 dark:border-zinc-700 dark:bg-zinc-900"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="worker-logs" className="text-lg font-semibold">
          Logs
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={tailId} className="text-sm">
            Last lines
          </label>
          <select
            id={tailId}
            value={tail}
            onChange={(event) => setTail(Number(event.target.value))}
            className="rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100"
          >
            {TAILS.map((count) => (
              <option key={count} value={count}>
                {count}
              </option>
            ))}
          </select>
          <Button
            variant="quiet"
            aria-pressed={following}
            disabled={!running}
            className="aria-pressed:bg-blue-100 aria-pressed:text-blue-900 dark:aria-pressed:bg-blue-900 dark:aria-pressed:text-blue-100"
            onClick={() => setFollowing((now) => !now)}
          >
            Follow
          </Button>
        </div>
      </div>
      {!running ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Not running.</p>
      ) : following ? (
        <FollowedLog workerId={workerRef.workerId} tail={tail} />
      ) : (
        <TailedLog workerRef={workerRef} tail={tail} />
      )}
    </section>
  );
}
