import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import type { AppContext } from '../../module.js';
import { IMAGE_BUILD_JOB } from '../image-builds/jobs.js';
import * as builds from '../image-builds/repository.js';
import { imageRepository, imageTag, plannedSteps } from '../image-builds/runner.js';
import { enqueueJob } from '../job-queue/queue.js';
import { waitForJob } from '../job-queue/wait.js';
import type { ProjectRow } from '../projects/repository.js';
import { currentImage } from '../workers/images.js';

/** Resolves when the signal aborts (then throws), or never. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    signal.addEventListener('abort', () => reject(new Error('let go')), { once: true });
  });
}

/**
 * The project's current pre-built image on the node, built first with the
 * image-build pipeline when the node has none for the project's current
 * version (a build of it already under way is waited for, not repeated).
 */
export async function projectImage(
  ctx: AppContext,
  project: ProjectRow,
  nodeId: string,
  say: (line: string) => void,
  signal: AbortSignal,
): Promise<string> {
  const current = await currentImage(ctx, project, nodeId);
  if (current !== ctx.config.workerImage) return current;
  const buildId = await inTransaction(ctx.db, async (trx) => {
    const open = await trx
      .selectFrom('image_builds')
      .select('id')
      .where('project_id', '=', project.id)
      .where('node_id', '=', nodeId)
      .where('project_version', '=', project.version)
      .where('base_image', '=', ctx.config.workerImage)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    if (open !== undefined) return open.id;
    const id = newId();
    await builds.insertBuilds(trx, [
      {
        id,
        org_id: project.org_id,
        project_id: project.id,
        node_id: nodeId,
        project_version: project.version,
        base_image: ctx.config.workerImage,
        image: `${imageRepository(project.id)}:${imageTag(project.version, id)}`,
        steps: plannedSteps(project),
        created_by: null,
      },
    ]);
    await enqueueJob(trx, { kind: IMAGE_BUILD_JOB, nodeId, targetId: id });
    return id;
  });
  say(`building the project's image on node ${nodeId} (build ${buildId})`);
  const job = await ctx.db
    .selectFrom('jobs')
    .select('id')
    .where('target_id', '=', buildId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (job !== undefined) await Promise.race([waitForJob(ctx, job.id), aborted(signal)]);
  const build = await builds.findBuild(ctx.db, buildId);
  if (build?.status !== 'succeeded') {
    throw new Error(`the project's image build failed: ${build?.error ?? 'it is gone'}`);
  }
  say(`built ${build.image}`);
  return build.image;
}
