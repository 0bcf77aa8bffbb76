import type { AgentPeer } from '../../agent/peer.js';
import type { Env } from '../../agent/protocol/schemas.js';
import type { RunOutput } from '../job-runs/output.js';
import { JOB_RUN_OUTPUT_CAP } from '../job-runs/output.js';

export interface OneOffCommand {
  peer: AgentPeer;
  /** The container's name: one per run, so a run taken over finds (and replaces) its own. */
  name: string;
  image: string;
  labels: Record<string, string>;
  env: Env;
  /** Run by `sh -c`. */
  command: string;
  timeoutSeconds: number;
  output: OutputSink;
  /** Aborted when the process lets the job go: the container is removed, which ends the command. */
  signal: AbortSignal;
}

/** Where output goes: a run's output, or several. */
export type OutputSink = Pick<RunOutput, 'write'>;

export interface OneOffResult {
  exitCode: number | null;
  timedOut: boolean;
}

/** Removes a container, if it is there. */
export async function removeQuietly(peer: AgentPeer, name: string): Promise<void> {
  await peer.request('container.remove', { containerId: name, force: true }).catch(() => {});
}

/**
 * Runs a command once in a container of its own (the pre-deploy hook, a
 * cron job): the container sleeps, the command runs in it through exec with
 * its time-out, its output goes to the run, then the container is removed
 * whatever happened.
 */
export async function runOneOff(job: OneOffCommand): Promise<OneOffResult> {
  const { peer, name, signal } = job;
  await removeQuietly(peer, name);
  const onAbort = () => void removeQuietly(peer, name);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await peer.request(
      'container.create',
      { image: job.image, name, labels: job.labels, env: job.env },
      5 * 60_000,
    );
    await peer.request('container.start', { containerId: name }, 60_000);
    const result = await peer.request(
      'exec.run',
      {
        containerId: name,
        command: ['sh', '-c', job.command],
        timeoutMs: job.timeoutSeconds * 1000,
        maxOutputBytes: JOB_RUN_OUTPUT_CAP,
      },
      job.timeoutSeconds * 1000 + 60_000,
    );
    if (signal.aborted) throw new Error('let go');
    job.output.write(result.stdout);
    job.output.write(result.stderr);
    return { exitCode: result.exitCode, timedOut: result.timedOut };
  } finally {
    signal.removeEventListener('abort', onAbort);
    await removeQuietly(peer, name);
  }
}
