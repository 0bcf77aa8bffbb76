import type { AgentPeer } from '../../agent/peer.js';
import { AgentRequestError } from '../../agent/peer.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { AppContext } from '../../module.js';

/**
 * Containers to remove are rows (`container_removals`) until their node's
 * agent confirms they are gone: a removal that fails because the agent is
 * away (a server restarted after a crash takes a deploy over before the
 * agent reconnects) is retried by the sweeper of whichever process holds
 * the agent next, never only logged. A row naming a job waits until that
 * job has ended (a deploy's hook container is its own while the deploy runs
 * or waits to be taken over: a lease running out under load must not let the
 * sweeper remove a hook that is running).
 */
export interface Removal {
  nodeId: string;
  containerName: string;
  jobId?: string | null;
}

/** How long a move waits for its node's agent to come back before it fails. */
export const AGENT_WAIT_MS = 120_000;
const AGENT_POLL_MS = 250;
const SWEEP_BATCH = 50;

export function isAgentAway(error: unknown): boolean {
  return (
    (error instanceof AppError && error.code === 'node_offline') ||
    (error instanceof AgentRequestError && error.code === 'agent_disconnected')
  );
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The node's agent, waiting (up to {@link AGENT_WAIT_MS}) while no process
 * holds it: after a server restart the agent reconnects a moment later.
 */
export async function reachWhenBack(
  ctx: AppContext,
  nodeId: string,
  signal?: AbortSignal,
): Promise<AgentPeer> {
  const deadline = Date.now() + AGENT_WAIT_MS;
  for (;;) {
    try {
      return await ctx.agents.reach(nodeId);
    } catch (error) {
      if (!isAgentAway(error) || Date.now() > deadline || signal?.aborted === true) throw error;
    }
    await pause(AGENT_POLL_MS, signal);
  }
}

/** Records containers to remove, in the caller's transaction when it has one. */
export async function queueRemovals(db: Database, removals: readonly Removal[]): Promise<void> {
  if (removals.length === 0) return;
  await db
    .insertInto('container_removals')
    .values(
      removals.map((removal) => ({
        node_id: removal.nodeId,
        container_name: removal.containerName,
        job_id: removal.jobId ?? null,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(['node_id', 'container_name'])
        .doUpdateSet({ job_id: (eb) => eb.ref('excluded.job_id') }),
    )
    .execute();
}

/** Removes one queued container through `peer`; the row goes once the container is gone. */
async function removeOne(db: Database, peer: AgentPeer, removal: Removal): Promise<void> {
  try {
    await peer.request('container.remove', { containerId: removal.containerName, force: true });
  } catch (error) {
    if (!(error instanceof AgentRequestError && error.code === 'not_found')) throw error;
  }
  await db
    .deleteFrom('container_removals')
    .where('node_id', '=', removal.nodeId)
    .where('container_name', '=', removal.containerName)
    .execute();
}

async function recordFailure(db: Database, removal: Removal, reason: string): Promise<void> {
  await db
    .updateTable('container_removals')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: reason }))
    .where('node_id', '=', removal.nodeId)
    .where('container_name', '=', removal.containerName)
    .execute();
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Tries the queued removals now, where the agent can be reached at once;
 * the others stay queued for the sweeper. Returns the ones left, with why.
 */
export async function removeQueued(
  ctx: AppContext,
  removals: readonly Removal[],
): Promise<{ removed: number; left: string[] }> {
  const left: string[] = [];
  let removed = 0;
  for (const removal of removals) {
    try {
      await removeOne(ctx.db, await ctx.agents.reach(removal.nodeId), removal);
      removed++;
    } catch (error) {
      const reason = reasonOf(error);
      left.push(`${removal.containerName}: ${reason}`);
      await recordFailure(ctx.db, removal, reason).catch(() => {});
    }
  }
  return { removed, left };
}

/**
 * The removals on the nodes whose agents this process holds, on a timer
 * and whenever an agent connects. Returns its stop.
 */
export function startRemovalSweeper(ctx: AppContext): () => Promise<void> {
  const registry = ctx.agents;
  let running: Promise<void> | null = null;
  let again = false;
  const sweep = () => {
    if (running !== null) {
      again = true;
      return;
    }
    running = sweepHeld(ctx)
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'container removal sweep failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          sweep();
        }
      });
  };
  const timer = setInterval(sweep, Math.max(1000, ctx.config.jobPollMs));
  timer.unref();
  registry.on('connected', sweep);
  return async () => {
    clearInterval(timer);
    registry.off('connected', sweep);
    again = false;
    await running;
  };
}

async function sweepHeld(ctx: AppContext): Promise<void> {
  const registry = ctx.agents;
  const held = registry.connectedNodeIds();
  if (held.length === 0) return;
  const rows = await ctx.db
    .selectFrom('container_removals as r')
    .select(['r.node_id', 'r.container_name', 'r.job_id'])
    .where('r.node_id', 'in', held)
    .where((eb) =>
      eb.or([
        eb('r.job_id', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as j')
              .select('j.id')
              .whereRef('j.id', '=', 'r.job_id')
              .where('j.state', 'in', ['queued', 'running']),
          ),
        ),
      ]),
    )
    .orderBy('r.created_at')
    .limit(SWEEP_BATCH)
    .execute();
  for (const row of rows) {
    const removal = { nodeId: row.node_id, containerName: row.container_name };
    const peer = registry.get(row.node_id)?.peer;
    if (peer === undefined) continue;
    try {
      await removeOne(ctx.db, peer, removal);
      ctx.log.info(removal, 'removed a container left to remove');
    } catch (error) {
      await recordFailure(ctx.db, removal, reasonOf(error));
    }
  }
}
