import { setTimeout as setTimeoutPromise } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Env } from '../../agent/protocol/schemas.js';
import { inTransaction } from '../../db/transaction.js';
import type { AppContext } from '../../module.js';
import type { RunOutput } from '../job-runs/output.js';
import { queueRemovals, reachWhenBack, removeQueued } from './removals.js';
import type { ReplicaRow } from './replicas.js';
import type { ServiceRow } from './repository.js';

/** Between two probes of a replica that has not passed yet. */
const PROBE_EVERY_MS = 250;
/** How long a new replica without a health check has to accept connections (or, without a port, keep running). */
export const DEFAULT_GRACE_SECONDS = 60;

/**
 * Waits `ms`, or less when the signal aborts (then resolves: the caller
 * checks the signal). Node's own timer removes its abort listener when it
 * ends, so a long deploy's many probes leave none behind on the signal.
 */
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  setTimeoutPromise(ms, undefined, { signal }).catch((error: unknown) => {
    if (!signal.aborted) throw error;
  });

export { sleep };

/** Unique per attempt too: the rows of an interrupted attempt's replicas stay (stopped). */
export function containerName(
  serviceId: string,
  runId: string,
  attempt: number,
  index: number,
): string {
  return `sparrow-svc-${serviceId}-${runId.slice(-12)}-a${attempt}-${index + 1}`;
}

/** Creates and starts a replica's container: the service's command (or the image's own), env and port. */
export async function startReplica(
  ctx: AppContext,
  service: ServiceRow,
  replica: ReplicaRow,
  spec: { image: string; env: Env; labels: Record<string, string> },
  signal?: AbortSignal,
): Promise<void> {
  const peer = await reachWhenBack(ctx, replica.node_id, signal);
  await peer.request(
    'container.create',
    {
      image: spec.image,
      name: replica.container_name,
      labels: spec.labels,
      env: spec.env,
      ...(service.command === null
        ? { imageCommand: true }
        : { command: ['sh', '-c', service.command] }),
      // A replica whose process dies is started again by the engine, in place.
      restart: 'unless-stopped',
    },
    5 * 60_000,
  );
  await peer.request('container.start', { containerId: replica.container_name }, 60_000);
}

/**
 * Waits until the replica passes its health check (an HTTP GET from its
 * node's agent), else until its port accepts connections, else (no port)
 * until it has kept running a moment. Throws, naming the check, when it does
 * not within the grace, or when the container exits first.
 */
export async function waitHealthy(
  ctx: AppContext,
  service: ServiceRow,
  replica: ReplicaRow,
  label: string,
  signal: AbortSignal,
): Promise<void> {
  const peer = await reachWhenBack(ctx, replica.node_id, signal);
  const check = service.health_check;
  const graceSeconds = check?.graceSeconds ?? DEFAULT_GRACE_SECONDS;
  const deadline = Date.now() + graceSeconds * 1000;
  const what =
    check !== null
      ? `health check GET ${check.path} on port ${replica.port}`
      : replica.port !== null
        ? `port ${replica.port} accepting connections`
        : 'the container running';
  let last = 'no probe answered';
  while (!signal.aborted) {
    if (replica.port === null) {
      const details = await peer.request('container.inspect', {
        containerId: replica.container_name,
      });
      if (!details.running)
        throw new Error(`${label} exited with code ${details.exitCode} at start`);
      if (details.startedAt !== null && Date.now() - Date.parse(details.startedAt) > 1000) return;
    } else {
      const timeoutMs = (check?.timeoutSeconds ?? 2) * 1000;
      const result = await peer.request(
        'container.probe',
        {
          containerId: replica.container_name,
          port: replica.port,
          ...(check === null ? {} : { path: check.path }),
          timeoutMs,
        },
        timeoutMs + 30_000,
      );
      if (result.ok) return;
      if (!result.running) {
        throw new Error(`${label} exited with code ${result.exitCode} before ${what} passed`);
      }
      last = result.error ?? 'failed';
    }
    if (Date.now() > deadline) {
      throw new Error(`${what} did not pass within ${graceSeconds} s (last: ${last})`);
    }
    await sleep(PROBE_EVERY_MS, signal);
  }
  throw new Error('let go');
}

/**
 * Marks the replicas stopped and queues their containers for removal in one
 * transaction, then removes what it can at once. A container whose node
 * cannot be reached now stays queued and is removed when its agent is back
 * (`removals.ts`); the output says so. Returns how many were removed now.
 */
export async function removeReplicas(
  ctx: AppContext,
  replicas: readonly ReplicaRow[],
  output?: RunOutput,
): Promise<{ removed: number; failures: string[] }> {
  if (replicas.length === 0) return { removed: 0, failures: [] };
  const removals = replicas.map((replica) => ({
    nodeId: replica.node_id,
    containerName: replica.container_name,
  }));
  await inTransaction(ctx.db, async (trx) => {
    await trx
      .updateTable('service_replicas')
      .set({ state: 'stopped', updated_at: sql<Date>`now()` })
      .where(
        'id',
        'in',
        replicas.map((replica) => replica.id),
      )
      .execute();
    await queueRemovals(trx, removals);
  });
  const { removed, left } = await removeQueued(ctx, removals);
  for (const failure of left) {
    output?.write(`could not remove ${failure}; it is removed when its node's agent is back\n`);
  }
  return { removed, failures: left };
}
