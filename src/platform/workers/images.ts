import type { Database } from '../../db/schema.js';
import type { AppContext } from '../../module.js';
import '../image-builds/tables.js';
import type { ProjectRow } from '../projects/repository.js';

/**
 * The image a new worker of this project starts from on this node: the
 * project's pre-built image when a build of its current version succeeded
 * there, else the base image (`WORKER_IMAGE`).
 */
export async function currentImage(
  ctx: AppContext,
  project: ProjectRow,
  nodeId: string,
  db: Database = ctx.db,
): Promise<string> {
  const build = await db
    .selectFrom('image_builds')
    .select('image')
    .where('project_id', '=', project.id)
    .where('node_id', '=', nodeId)
    .where('project_version', '=', project.version)
    .where('base_image', '=', ctx.config.workerImage)
    .where('status', '=', 'succeeded')
    .orderBy('finished_at', 'desc')
    .executeTakeFirst();
  return build?.image ?? ctx.config.workerImage;
}
