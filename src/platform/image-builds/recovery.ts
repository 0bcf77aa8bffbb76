import type { AppContext } from '../../module.js';
import { openJobTargets } from '../job-queue/queue.js';
import type { ConnectedAgent } from '../nodes/registry.js';
import { reasonOf } from '../workers/lifecycle.js';
import type { ImageBuildRow } from './repository.js';
import * as repository from './repository.js';
import { buildContainerName } from './runner.js';

export const INTERRUPTED =
  'Interrupted: the server process running the build stopped before it finished';

/** The build's steps and log as a build that was cut off ends: the unfinished steps say why. */
export function interruptedRecord(build: ImageBuildRow, reason: string) {
  const now = new Date();
  const steps = build.steps.map((step) => {
    if (step.status === 'running') {
      return { ...step, status: 'failed' as const, finishedAt: now.toISOString(), message: reason };
    }
    if (step.status === 'pending') {
      return { ...step, status: 'skipped' as const, message: 'Not run: the build was interrupted' };
    }
    return step;
  });
  const log = `${build.log}${now.toISOString()} Build failed: ${reason}\n`;
  return { status: 'failed' as const, steps, log, error: reason, finished_at: now };
}

/**
 * A build whose process died mid-way is not run again from its middle: its
 * job, taken over, settles it as interrupted (the unfinished steps say why,
 * followers are told) and removes its build container, if any.
 */
export async function settleInterrupted(
  ctx: AppContext,
  build: ImageBuildRow,
  agent: ConnectedAgent,
): Promise<void> {
  const record = interruptedRecord(build, INTERRUPTED);
  try {
    const { removed } = await agent.peer.request('container.remove', {
      containerId: buildContainerName(build.id),
      force: true,
    });
    if (removed) record.log += `${new Date().toISOString()} Removed the build container\n`;
  } catch (error) {
    record.log += `${new Date().toISOString()} Could not remove the build container: ${reasonOf(error)}\n`;
  }
  const settled = await repository.updateBuild(ctx.db, build.id, record, ['queued', 'running']);
  if (settled) ctx.builds.activity.changes.emit(build.id);
}

/**
 * A build left unfinished with no open job (queued by a server older than
 * build jobs) can no longer finish: when its node's agent connects, it is
 * settled as interrupted.
 */
export function recoverInterruptedBuilds(ctx: AppContext): void {
  ctx.agents.on('connected', (agent: ConnectedAgent) => {
    settleJobless(ctx, agent).catch((error: unknown) =>
      ctx.log.warn({ err: error, nodeId: agent.nodeId }, 'could not settle interrupted builds'),
    );
  });
}

async function settleJobless(ctx: AppContext, agent: ConnectedAgent): Promise<void> {
  const builds = await repository.unfinishedBuilds(ctx.db, agent.nodeId, agent.connectedAt);
  const open = await openJobTargets(
    ctx.db,
    builds.map((build) => build.id),
  );
  for (const build of builds) {
    if (!open.has(build.id)) await settleInterrupted(ctx, build, agent);
  }
}
