import type { AppContext } from '../../module.js';
import { agentRegistry, type ConnectedAgent } from '../nodes/registry.js';
import { reasonOf } from '../workers/lifecycle.js';
import { buildActivity } from './activity.js';
import * as repository from './repository.js';
import { buildContainerName } from './runner.js';

export const INTERRUPTED =
  'Interrupted: the server process running the build stopped before it finished';

/**
 * A build runs in the server process that holds its node's agent, so when an
 * agent connects here, a build of that node still queued or running, created
 * before the connection and not running in this process, can no longer
 * finish: it is marked failed (its unfinished steps say why, followers are
 * told) and its build container, if any, is removed.
 */
export function recoverInterruptedBuilds(ctx: AppContext): void {
  agentRegistry(ctx).on('connected', (agent: ConnectedAgent) => {
    settleInterrupted(ctx, agent).catch((error: unknown) =>
      ctx.log.warn({ err: error, nodeId: agent.nodeId }, 'could not settle interrupted builds'),
    );
  });
}

async function settleInterrupted(ctx: AppContext, agent: ConnectedAgent): Promise<void> {
  const activity = buildActivity(ctx);
  const builds = await repository.unfinishedBuilds(ctx.db, agent.nodeId, agent.connectedAt);
  for (const build of builds) {
    if (activity.has(build.id)) continue;
    const now = new Date();
    const steps = build.steps.map((step) => {
      if (step.status === 'running') {
        return {
          ...step,
          status: 'failed' as const,
          finishedAt: now.toISOString(),
          message: INTERRUPTED,
        };
      }
      if (step.status === 'pending') {
        return {
          ...step,
          status: 'skipped' as const,
          message: 'Not run: the build was interrupted',
        };
      }
      return step;
    });
    let log = `${build.log}${now.toISOString()} Build failed: ${INTERRUPTED}\n`;
    try {
      const { removed } = await agent.peer.request('container.remove', {
        containerId: buildContainerName(build.id),
        force: true,
      });
      if (removed) log += `${new Date().toISOString()} Removed the build container\n`;
    } catch (error) {
      log += `${new Date().toISOString()} Could not remove the build container: ${reasonOf(error)}\n`;
    }
    const settled = await repository.updateBuild(
      ctx.db,
      build.id,
      { status: 'failed', steps, log, error: INTERRUPTED, finished_at: now },
      ['queued', 'running'],
    );
    if (settled) activity.changes.emit(build.id);
  }
}
