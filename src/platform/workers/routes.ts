import Type from 'typebox';
import type { Database } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict, notFound } from '../../http/errors.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import type { OrgAccess } from '../access/org-access.js';
import { orgRoutes } from '../access/org-route.js';
import type { NodeRow } from '../nodes/repository.js';
import { projectInOrg } from '../projects/lookup.js';
import { currentImage } from './images.js';
import { workerLifecycle } from './lifecycle.js';
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
 * The worker routes. None runs in one transaction: the moves they start go on
 * after the answer, on the node's agent, and each step writes its own state.
 */
export function workerRoutes(router: Router, ctx: AppContext): void {
  const lifecycle = workerLifecycle(ctx);
  const { route } = orgRoutes(router, ctx, ['Workers']);

  /** Moves the worker to `next` when it is in one of `from`, then runs the move. */
  async function transition(
    db: Database,
    row: WorkerRow,
    from: readonly WorkerState[],
    next: WorkerState,
    verb: string,
    move: (row: WorkerRow) => Promise<void>,
    wait: boolean | undefined,
  ) {
    const moved = await repository.updateWorker(db, row.id, { state: next }, from);
    if (moved === undefined) throw busy(row, verb);
    const task = move(moved);
    if (wait === true) await task;
    const now = await repository.findWorker(db, row.id);
    return now === undefined ? undefined : service.presentWorker(db, now);
  }

  /** Stop and start: a worker with a container, on a reachable node, in one of `from`. */
  function powerMove(
    from: readonly WorkerState[],
    next: WorkerState,
    verb: string,
    move: (row: WorkerRow) => Promise<void>,
  ) {
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
      service.requireControl(access, row);
      if (row.container_id === null) throw busy(row, verb);
      lifecycle.registry.peer(row.node_id);
      const worker = await transition(db, row, from, next, verb, move, request.query.wait);
      if (worker === undefined) throw notFound('Worker');
      return worker;
    };
  }

  route({
    method: 'GET',
    url: '/orgs/:orgId/projects/:projectId/workers',
    key: ['workers:read'],
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
    handler: async (db, access, request) => {
      service.requireSpawn(access);
      const project = await projectInOrg(db, access, request.params.projectId);
      const reachable = (node: NodeRow) => lifecycle.registry.get(node.id) !== undefined;
      // Placement and the insert in one transaction, the candidate nodes locked: a node's
      // maxWorkers holds whatever the concurrency.
      const { node, row } = await inTransaction(db, async (trx) => {
        const node = await service.placeWorker(trx, access, reachable, request.body.nodeId);
        // A pre-built image holds the default branches; a worker on another branch clones afresh.
        const image =
          request.body.branch === undefined
            ? await currentImage(ctx, project, node.id, trx)
            : ctx.config.workerImage;
        const row = await service.createWorkerRow(trx, access, project, node, image, request.body);
        return { node, row };
      });
      const task = lifecycle.create(row);
      if (request.query.wait === true) await task;
      const now = (await repository.findWorker(db, row.id)) ?? row;
      return service.toWorker(now, node.public_address);
    },
  });

  route({
    method: 'GET',
    url: WORKER,
    key: ['workers:read'],
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
    handler: powerMove(['ready', 'failed'], 'stopping', 'stop', (moved) => lifecycle.stop(moved)),
  });

  route({
    method: 'POST',
    url: `${WORKER}/start`,
    key: ['workers:write'],
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
    handler: powerMove(['stopped', 'failed'], 'starting', 'start', (moved) =>
      lifecycle.start(moved),
    ),
  });

  route({
    method: 'DELETE',
    url: WORKER,
    key: ['workers:write'],
    transaction: false,
    operationId: 'deleteWorker',
    summary: 'Delete a worker',
    description:
      'Removes the container and its files, then the worker (state `deleting` meanwhile; answers 202 ' +
      'with it, or 204 once gone with `wait=true`). A node that cannot be reached gives 503 ' +
      '`node_offline` unless `force=true`.',
    params: WorkerParams,
    querystring: DeleteWorkerQuery,
    response: Worker,
    status: 202,
    otherResponses: { 204: NoContent },
    errors: POWER_ERRORS,
    handler: async (db, access, request, reply) => {
      const { projectId, workerId } = request.params;
      const row = await service.workerInProject(db, access, projectId, workerId);
      service.requireControl(access, row);
      const force = request.query.force === true;
      if (!force && row.container_id !== null) lifecycle.registry.peer(row.node_id);
      const worker = await transition(
        db,
        row,
        force ? [...DELETABLE, 'deleting'] : DELETABLE,
        'deleting',
        'be deleted',
        (moved) => lifecycle.remove(moved, force),
        request.query.wait,
      );
      // Not in a transaction: answering here is safe.
      if (worker === undefined) return reply.code(204).send(null);
      return worker;
    },
  });
}
