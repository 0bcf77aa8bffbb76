import type { ContainerSummary } from '../../agent/protocol/schemas.js';
import type { AppContext } from '../../module.js';
import { enqueueJob, openJobTargets } from '../job-queue/queue.js';
import type { ConnectedAgent } from '../nodes/registry.js';
import { WorkerJobs, type WorkerLifecycle } from './lifecycle.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';

/**
 * Brings the workers of a node in line with the containers it reports. A
 * container that vanished makes its worker `lost`; one that stopped by
 * itself makes a ready worker `stopped` (with the reason); one that runs
 * again makes a stopped worker `ready`. A move cut off by a server restart
 * is settled from what the container shows (a cut-off creation is failed,
 * a cut-off deletion finished).
 */
export async function reconcileNode(
  ctx: AppContext,
  agent: ConnectedAgent,
  inventory: ContainerSummary[] | null,
): Promise<void> {
  const workers = await repository.workersOnNode(ctx.db, agent.nodeId);
  if (workers.length === 0) return;
  let containers = inventory;
  let missing = new Set<string>();
  if (containers === null) {
    const result = await agent.peer.request('inventory.reconcile', {
      workers: workers.map((worker) => ({ workerId: worker.id, containerId: worker.container_id })),
    });
    containers = result.present.map((entry) => entry.container);
    missing = new Set(result.missing);
  }
  const moving = await openJobTargets(
    ctx.db,
    workers.map((worker) => worker.id),
  );
  const byWorker = new Map(
    containers.flatMap((container) =>
      container.workerId === null ? [] : [[container.workerId, container] as const],
    ),
  );
  for (const worker of workers) {
    // A move under way (or queued) settles the worker itself.
    if (moving.has(worker.id)) continue;
    const container = byWorker.get(worker.id);
    if (container === undefined && worker.container_id !== null) {
      if (inventory === null && !missing.has(worker.id)) continue;
      await settleMissing(ctx, worker);
    } else if (container !== undefined) {
      await settlePresent(ctx, worker, container);
    } else if (worker.state === 'creating') {
      await interrupted(ctx, worker, 'creation was interrupted before the container existed');
    } else if (worker.state === 'deleting') {
      await finishDeletion(ctx, worker);
    }
  }
}

/** A deletion whose job is gone (an older server did not record it as one) is queued again. */
async function finishDeletion(ctx: AppContext, worker: WorkerRow) {
  await enqueueJob(ctx.db, {
    kind: WorkerJobs.delete,
    nodeId: worker.node_id,
    targetId: worker.id,
    payload: { force: true },
  });
}

async function interrupted(ctx: AppContext, worker: WorkerRow, reason: string) {
  await repository.updateWorker(ctx.db, worker.id, { state: 'failed', state_reason: reason }, [
    worker.state,
  ]);
}

async function settleMissing(ctx: AppContext, worker: WorkerRow) {
  if (worker.state === 'deleting') {
    await finishDeletion(ctx, worker);
    return;
  }
  if (worker.state === 'lost') return;
  await repository.updateWorker(
    ctx.db,
    worker.id,
    { state: 'lost', state_reason: 'the container no longer exists on its node' },
    [worker.state],
  );
}

async function settlePresent(ctx: AppContext, worker: WorkerRow, container: ContainerSummary) {
  const running = container.state === 'running';
  if (worker.state === 'deleting') {
    await finishDeletion(ctx, worker);
  } else if (worker.state === 'creating' || worker.state === 'starting') {
    await interrupted(ctx, worker, `${worker.state} was interrupted; start the worker again`);
  } else if (worker.state === 'ready' && !running) {
    await repository.updateWorker(
      ctx.db,
      worker.id,
      {
        state: 'stopped',
        state_reason: `the container stopped by itself (${container.status})`,
        ports: container.ports,
      },
      ['ready'],
    );
  } else if ((worker.state === 'stopped' || worker.state === 'stopping') && !running) {
    if (worker.state === 'stopping') {
      await repository.updateWorker(ctx.db, worker.id, { state: 'stopped' }, ['stopping']);
    }
  } else if ((worker.state === 'stopped' || worker.state === 'stopping') && running) {
    await repository.updateWorker(
      ctx.db,
      worker.id,
      { state: 'ready', ports: container.ports, ready: true },
      [worker.state],
    );
  }
}

/** What reconciling looks at in a report: each container's id, state and worker. */
function signature(inventory: ContainerSummary[]): string {
  return inventory
    .map((container) => `${container.id}:${container.state}:${container.workerId ?? ''}`)
    .sort()
    .join(',');
}

/**
 * Reconciles on every connection and every inventory change, one pass per
 * node at a time. A report showing the same containers in the same states as
 * the last one reconciled is skipped: agents may report often, and a large
 * fleet's reports must not cost a pass each.
 */
export function watchNodes(ctx: AppContext, lifecycle: WorkerLifecycle): void {
  const passes = new Map<string, Promise<void>>();
  const reconciled = new Map<string, string>();
  const schedule = (agent: ConnectedAgent, inventory: ContainerSummary[] | null) => {
    const seen = inventory === null ? null : signature(inventory);
    if (seen !== null && reconciled.get(agent.nodeId) === seen) return;
    if (seen === null) reconciled.delete(agent.nodeId);
    const previous = passes.get(agent.nodeId) ?? Promise.resolve();
    const pass = previous
      .then(() => reconcileNode(ctx, agent, inventory))
      .then(() => {
        if (seen !== null) reconciled.set(agent.nodeId, seen);
      })
      .catch((error: unknown) =>
        ctx.log.warn({ err: error, nodeId: agent.nodeId }, 'could not reconcile the node'),
      )
      .finally(() => {
        if (passes.get(agent.nodeId) === pass) passes.delete(agent.nodeId);
      });
    passes.set(agent.nodeId, pass);
  };
  lifecycle.registry.on('connected', (agent: ConnectedAgent) => schedule(agent, null));
  lifecycle.registry.on('inventory', (agent: ConnectedAgent) => schedule(agent, agent.inventory));
  lifecycle.registry.on('disconnected', (nodeId: string) => reconciled.delete(nodeId));
}
