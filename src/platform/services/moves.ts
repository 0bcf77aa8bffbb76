import type { Database } from '../../db/schema.js';
import { badRequest } from '../../http/errors.js';
import type { OrgAccess } from '../access/org-access.js';
import { deploymentInOrg } from '../deployments/lookup.js';
import { enqueueJob } from '../job-queue/queue.js';
import { imageWasDeployed, insertRun, recordedImage } from '../job-runs/service.js';
import { ServiceJobs } from './job-kinds.js';
import { serviceInDeployment } from './lookup.js';
import { liveReplicas } from './replicas.js';
import type { ServiceRow } from './repository.js';
import * as repository from './repository.js';
import { lockService, setServiceState } from './runs.js';

export type Move = 'deploy' | 'start' | 'stop';

export interface DeployRequest {
  runId?: string;
  image?: string;
}

/** What a move asked: the service's id and the deploy run it queued (null when none). */
export interface MoveResult {
  serviceId: string;
  runId: string | null;
}

/** A deploy run and its job, queued behind the service's moves under way; the service is `deploying`. */
async function queueDeploy(db: Database, service: ServiceRow, image: string | null) {
  const run = await insertRun(db, service, { kind: 'deploy', image });
  await enqueueJob(db, {
    kind: ServiceJobs.deploy,
    nodeId: null,
    targetId: service.id,
    payload: { runId: run.id },
  });
  await setServiceState(db, service.id, 'deploying', null);
  return run.id;
}

async function pinnedImage(db: Database, service: ServiceRow, request: DeployRequest) {
  if (request.runId !== undefined && request.image !== undefined) {
    throw badRequest('unknown_deploy', 'Send `runId` or `image`, not both');
  }
  if (request.runId !== undefined) {
    const image = await recordedImage(db, service.id, request.runId);
    if (image === undefined) {
      throw badRequest(
        'unknown_deploy',
        'No deploy of this service with this id recorded an image',
        {
          runId: request.runId,
        },
      );
    }
    return image;
  }
  if (request.image !== undefined) {
    if (!(await imageWasDeployed(db, service.id, request.image))) {
      throw badRequest('unknown_deploy', 'No earlier deploy of this service ran this image', {
        image: request.image,
      });
    }
    return request.image;
  }
  return null;
}

/** Applies one move to a locked service row. */
async function apply(
  db: Database,
  service: ServiceRow,
  move: Move,
  request: DeployRequest = {},
): Promise<MoveResult> {
  const none = { serviceId: service.id, runId: null };
  if (move === 'deploy') {
    const image = await pinnedImage(db, service, request);
    return { serviceId: service.id, runId: await queueDeploy(db, service, image) };
  }
  if (move === 'start') {
    // Starting what runs, or is on its way, is nothing to do.
    if (service.state === 'running' || service.state === 'deploying') return none;
    const image = (await recordedImage(db, service.id)) ?? null;
    return { serviceId: service.id, runId: await queueDeploy(db, service, image) };
  }
  if (service.state === 'stopped') return none;
  await enqueueJob(db, { kind: ServiceJobs.stop, nodeId: null, targetId: service.id });
  await setServiceState(db, service.id, 'stopping', null);
  return none;
}

export async function moveService(
  db: Database,
  access: OrgAccess,
  ids: { deploymentId: string; serviceId: string },
  move: Move,
  request: DeployRequest = {},
): Promise<MoveResult> {
  const found = await serviceInDeployment(db, access, ids.deploymentId, ids.serviceId, true);
  return apply(db, found, move, request);
}

/** The move for every service of the deployment, in name order, in one transaction. */
export async function moveDeployment(
  db: Database,
  access: OrgAccess,
  deploymentId: string,
  move: Move,
): Promise<MoveResult[]> {
  await deploymentInOrg(db, access, deploymentId, true);
  const rows = await repository.listServices(db, { orgId: access.orgId, deploymentId });
  const results: MoveResult[] = [];
  for (const row of rows) {
    const locked = await lockService(db, row.id);
    if (locked !== undefined) results.push(await apply(db, locked, move));
  }
  return results;
}

/**
 * Before a service row goes (deleted, or its deployment is): a job that
 * removes the containers it still has, which no row will name afterwards.
 */
export async function queueContainerRemoval(db: Database, serviceIds: readonly string[]) {
  for (const serviceId of serviceIds) {
    const replicas = await liveReplicas(db, serviceId);
    if (replicas.length === 0) continue;
    await enqueueJob(db, {
      kind: ServiceJobs.cleanup,
      nodeId: null,
      targetId: serviceId,
      payload: {
        containers: replicas.map((replica) => ({
          nodeId: replica.node_id,
          name: replica.container_name,
        })),
      },
    });
  }
}
