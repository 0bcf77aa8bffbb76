import Type from 'typebox';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict, notFound } from '../../http/errors.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import { orgRoutes } from '../access/org-route.js';
import { enqueueJob, type JobRow } from '../job-queue/queue.js';
import { waitForJob } from '../job-queue/wait.js';
import { nodeOffline } from '../nodes/registry.js';
import { findNodeById } from '../nodes/repository.js';
import { isOnline } from '../nodes/service.js';
import { WorkerBuilder } from './builder.js';
import { WorkerJobs } from './lifecycle.js';
import { requireWorkerAction } from './policy.js';
import type { WorkerRow } from './repository.js';
import * as repository from './repository.js';
import {
  DeleteWorkerQuery,
  ProjectWorkersParams,
  SpawnWorkerBody,
  WaitQuery,
  Worker,
  WorkerParams,
} from './schemas.js';
import * as service from './service.js';
import type { WorkerState } from './tables.js';

const WORKER = '/orgs/:orgId/projects/:projectId/workers/:workerId';

function busy(row: WorkerRow, move: string) {
  return conflict('worker_state_conflict', `A worker in state ${row.state} cannot ${move}`, {
    state: row.state,
  });
}

/** Every state a worker can be deleted from without `force`. */
const DELETABLE: readonly WorkerState[] = [
  'creating',
  'ready',
  'stopping',
  'stopped',
  'starting',
  'failed',
  'lost',
];

/**
 * The worker routes. A move (spawn, start, stop, delete) is a job row written
 * in the transaction that changes the worker's state; the server process
 * holding the node's agent carries it out (src/platform/job-queue). `wait=true`
 * waits for the job's row, whichever process runs it.
 */
export function workerRoutes(router: Router, ctx: AppContext): void {
  const { route } = orgRoutes(router, ctx, ['Workers']);

  /** 503 `node_offline` unless some server process holds the node's agent. */
  async function requireOnline(db: Database, nodeId: string): Promise<void> {
    const node = await findNodeById(db, nodeId);
    if (node === undefined || !isOnline(node)) throw nodeOffline(nodeId);
  }

  async function answer(db: Database, workerId: string, job: JobRow, wait: boolean | undefined) {
    if (wait === true) await waitForJob(ctx, job.id);
    const now = await repository.findWorker(db, workerId);
    return now === undefined ? undefined : service.presentWorker(db, now);
  }

  /** Moves the worker to `next` when it is in one of `from` and queues the move, in one transaction. */
  async function transition(
    db: Database,
    row: WorkerRow,
    from: readonly WorkerState[],
    next: WorkerState,
    verb: string,
    kind: string,
    wait: boolean | undefined,
    payload?: Record<string, unknown>,
  ) {
    const job = await inTransaction(db, async (trx) => {
      const moved = await repository.updateWorker(trx, row.id, { state: next }, from);
      if (moved === undefined) throw busy(row, verb);
      return enqueueJob(trx, { kind, nodeId: row.node_id, targetId: row.id, payload });
    });
    return answer(db, row.id, job, wait);
  }

  /** Stop and start: a worker with a container, on a reachable node, in one of `from`. */
  function powerMove(from: readonly WorkerState[], next: WorkerState, verb: string, kind: string) {
    return async (
      db: Database,
      access: OrgAccess,
      request: { params: { projectId: string; workerId: string }; query: { wait?: boolean } },
    ) => {
      const row = await service.workerInProject(
        db,
        access,
        request.params.projectId,
        request.params.workerId,
      );
      requireWorkerAction(access, row);
      if (row.container_id === null) throw busy(row, verb);
      await requireOnline(db, row.node_id);
      const worker = await transition(db, row, from, next, verb, kind, request.query.wait);
      if (worker === undefined) throw notFound('Worker');
      return worker;
    };
  }

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId/workers',
    key: ['workers:read'],
    permission: 'workers.use',
    operationId: 'listWorkers',
    summary: 'List workers',
    description: "The project's workers, oldest first. Any member may list them.",
    params: ProjectWorkersParams,
    response: Type.Array(Worker),
    handler: (db, access, request) => service.listWorkers(db, access, request.params.projectId),
  });

  route({
    method: 'POST',
    url: '/orgs/:orgId/projects/:projectId/workers',
    key: ['workers:write'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'spawnWorker',
    summary: 'Spawn a worker',
    description:
      'Creates a container from the project on a node: the one named by `nodeId`, else the online, ' +
      'not draining node with the fewest active workers (409 `no_node_available` or `node_unavailable`). ' +
      "The container gets the project's repositories under `/workspaces/<name>` on the requested " +
      "branch (created from the default branch when the remote lacks it), the project's secrets and " +
      "the caller's own secrets as environment variables (a personal secret wins over a shared one " +
      "of the same name), and the project's forwarded ports. It starts from the project's pre-built " +
      'image when a build for the current version succeeded on that node and no `branch` is asked for, else from the base image. ' +
      'Answers at once in state `creating` (or, with `wait=true`, once `ready` or `failed`).',
    params: ProjectWorkersParams,
    querystring: WaitQuery,
    body: SpawnWorkerBody,
    response: Worker,
    status: 201,
    errors: ['insufficient_role', 'no_node_available', 'node_unavailable'],
    handler: (db, access, request) =>
      new WorkerBuilder(ctx, access, {
        ...request.body,
        projectId: request.params.projectId,
        wait: request.query.wait,
      }).build(db),
  });

  route({
    method: 'GET',
    url: WORKER,
    key: ['workers:read'],
    permission: 'workers.use',
    operationId: 'getWorker',
    summary: 'Get a worker',
    description: 'Its state (and the reason of a failure), checkouts, ports and their URLs.',
    params: WorkerParams,
    response: Worker,
    handler: async (db, access, request) => {
      const { projectId, workerId } = request.params;
      return service.presentWorker(
        db,
        await service.workerInProject(db, access, projectId, workerId),
      );
    },
  });

  const POWER_ERRORS = ['insufficient_role', 'worker_state_conflict', 'node_offline'] as const;

  route({
    method: 'POST',
    url: `${WORKER}/stop`,
    key: ['workers:write'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'stopWorker',
    summary: 'Stop a worker',
    description:
      'From `ready` (or `failed` with a container): `stopping`, then `stopped`. Files are kept; ' +
      'terminal sessions and background commands end with the container. 409 ' +
      "`worker_state_conflict` from other states. The worker's owner, or an owner or admin.",
    params: WorkerParams,
    querystring: WaitQuery,
    response: Worker,
    status: 202,
    errors: POWER_ERRORS,
    handler: powerMove(['ready', 'failed'], 'stopping', 'stop', WorkerJobs.stop),
  });

  route({
    method: 'POST',
    url: `${WORKER}/start`,
    key: ['workers:write'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'startWorker',
    summary: 'Start a worker',
    description:
      'From `stopped` (or `failed` with a container): `starting`, then `ready`; repositories missing ' +
      'from the container are cloned again. 409 `worker_state_conflict` from other states.',
    params: WorkerParams,
    querystring: WaitQuery,
    response: Worker,
    status: 202,
    errors: POWER_ERRORS,
    handler: powerMove(['stopped', 'failed'], 'starting', 'start', WorkerJobs.start),
  });

  route({
    method: 'DELETE',
    url: WORKER,
    key: ['workers:write'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'deleteWorker',
    summary: 'Delete a worker',
    description:
      'Removes the container and its files, then the worker (state `deleting` meanwhile; answers 202 ' +
      'with it, or 204 once gone with `wait=true`). A node that cannot be reached gives 503 ' +
      '`node_offline` unless `force=true`, which removes the worker at once (204) and leaves its ' +
      'container to the node.',
    params: WorkerParams,
    querystring: DeleteWorkerQuery,
    response: Worker,
    status: 202,
    otherResponses: { 204: NoContent },
    errors: POWER_ERRORS,
    handler: async (db, access, request, reply) => {
      const { projectId, workerId } = request.params;
      const row = await service.workerInProject(db, access, projectId, workerId);
      requireWorkerAction(access, row);
      const force = request.query.force === true;
      const node = await findNodeById(db, row.node_id);
      const online = node !== undefined && isOnline(node);
      if (force && !online) {
        // No agent to remove the container with: the worker goes at once.
        await repository.deleteWorker(db, row.id);
        return reply.code(204).send(null);
      }
      if (!force && row.container_id !== null && !online) throw nodeOffline(row.node_id);
      const worker = await transition(
        db,
        row,
        force ? [...DELETABLE, 'deleting'] : DELETABLE,
        'deleting',
        'be deleted',
        WorkerJobs.delete,
        request.query.wait,
        { force },
      );
      // Not in a transaction: answering here is safe.
      if (worker === undefined) return reply.code(204).send(null);
      return worker;
    },
  });
}
