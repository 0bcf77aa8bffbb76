import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';
import type { AppContext } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import { enqueueJob } from '../job-queue/queue.js';
import * as nodes from '../nodes/service.js';
import { projectInOrg } from '../projects/lookup.js';
import { currentImage } from '../workers/images.js';
import { IMAGE_BUILD_JOB } from './jobs.js';
import type { ImageBuildRow } from './repository.js';
import * as repository from './repository.js';
import { imageRepository, imageTag, plannedSteps } from './runner.js';
import type { ImageBuild } from './schemas.js';

export function toImageBuild(row: ImageBuildRow, current: boolean): ImageBuild {
  return {
    id: row.id,
    orgId: row.org_id,
    projectId: row.project_id,
    nodeId: row.node_id,
    projectVersion: row.project_version,
    baseImage: row.base_image,
    image: row.image,
    status: row.status,
    current,
    steps: row.steps,
    log: row.log,
    error: row.error,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/**
 * Queues a build of the project's current version on every node the
 * organization can use that is online and not draining (409
 * `no_node_available` when there is none), each with its job.
 */
export async function startBuilds(
  ctx: AppContext,
  access: OrgAccess,
  projectId: string,
): Promise<ImageBuild[]> {
  const project = await projectInOrg(ctx.db, access, projectId);
  const available = (await nodes.listNodes(ctx.db, access)).filter(
    (node) => node.status === 'online',
  );
  if (available.length === 0) {
    throw conflict(
      'no_node_available',
      'No node can build: register one and start its agent, or undrain one',
    );
  }
  // Each build with its job, in one transaction: the process holding the node's agent runs it.
  const rows = await inTransaction(ctx.db, async (trx) => {
    const rows = await repository.insertBuilds(
      trx,
      available.map((node) => {
        const id = newId();
        return {
          id,
          org_id: access.orgId,
          project_id: project.id,
          node_id: node.id,
          project_version: project.version,
          base_image: ctx.config.workerImage,
          image: `${imageRepository(project.id)}:${imageTag(project.version, id)}`,
          steps: plannedSteps(project),
          created_by: access.userId,
        };
      }),
    );
    for (const row of rows) {
      await enqueueJob(trx, { kind: IMAGE_BUILD_JOB, nodeId: row.node_id, targetId: row.id });
    }
    return rows;
  });
  return rows.map((row) => toImageBuild(row, false));
}

/** The project's builds, newest first, each marked `current` when workers would use it. */
export async function listBuilds(
  ctx: AppContext,
  access: OrgAccess,
  projectId: string,
): Promise<ImageBuild[]> {
  const project = await projectInOrg(ctx.db, access, projectId);
  const rows = await repository.listBuilds(ctx.db, project.id);
  // Asked of the function that places workers, so `current` cannot disagree with it.
  const inUse = new Map<string, string>();
  for (const nodeId of new Set(rows.map((row) => row.node_id))) {
    inUse.set(nodeId, await currentImage(ctx, project, nodeId));
  }
  return rows.map((row) =>
    toImageBuild(row, row.status === 'succeeded' && inUse.get(row.node_id) === row.image),
  );
}

/** A build by its id alone, of any organization (the log socket checks the caller's). */
export function findBuild(db: Database, buildId: string): Promise<ImageBuildRow | undefined> {
  return repository.findBuild(db, buildId);
}
