import type { AppContext } from '../../module.js';
import { findProject } from '../projects/repository.js';
import { interruptedRecord, settleInterrupted } from './recovery.js';
import * as repository from './repository.js';
import { runBuild } from './runner.js';

export const IMAGE_BUILD_JOB = 'image.build';

/**
 * An image build is a job: queued with its record, run by the server process
 * holding its node's agent. A build taken over after its process died is
 * settled as interrupted rather than run again from its middle.
 */
export function registerBuildJobs(ctx: AppContext): void {
  ctx.jobs.kinds.register(IMAGE_BUILD_JOB, {
    run: async (job, agent) => {
      const build = await repository.findBuild(ctx.db, job.target_id);
      if (build === undefined || build.status === 'succeeded' || build.status === 'failed') return;
      if (build.status === 'running') {
        await settleInterrupted(ctx, build, agent);
        return;
      }
      const project = await findProject(ctx.db, build.org_id, build.project_id);
      if (project === undefined) throw new Error('the project was deleted');
      await runBuild(ctx, build, project, agent);
    },
    fail: async (db, job, reason) => {
      const build = await repository.findBuild(db, job.target_id);
      if (build === undefined) return;
      const settled = await repository.updateBuild(db, build.id, interruptedRecord(build, reason), [
        'queued',
        'running',
      ]);
      if (settled) ctx.builds.activity.changes.emit(build.id);
    },
  });
}
