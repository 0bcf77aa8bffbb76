import type { FastifyReply, FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import { requirePrincipal } from '../../http/auth.js';
import { conflict, notFound } from '../../http/errors.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import * as orgs from '../orgs/service.js';
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

const tags = ['Workers'];

function busy(row: WorkerRow, move: string) {
  return conflict('worker_state_conflict', `A worker in state ${row.state} cannot ${move}`, {
    state: row.state,
  });
}

export function workerRoutes(router: Router, ctx: AppContext): void {
  const lifecycle = workerLifecycle(ctx);

  /** Moves the worker to `next` when it is in one of `from`, then runs the move. */
  async function transition(
    row: WorkerRow,
    from: readonly WorkerState[],
    next: WorkerState,
    verb: string,
    move: (row: WorkerRow) => Promise<void>,
    wait: boolean | undefined,
  ) {
    const moved = await repository.updateWorker(ctx.db, row.id, { state: next }, from);
    if (moved === undefined) throw busy(row, verb);
    const task = move(moved);
    if (wait === true) await task;
    const now = await repository.findWorker(ctx.db, row.id);
    return now === undefined ? undefined : service.presentWorker(ctx.db, now);
  }

  /** Stop and start: a worker with a container, on a reachable node, in one of `from`. */
  function powerMove(
    from: readonly WorkerState[],
    next: WorkerState,
    verb: string,
    move: (row: WorkerRow) => Promise<void>,
  ) {
    return async (
      request: FastifyRequest<{
        Params: Static<typeof WorkerParams>;
        Querystring: Static<typeof WaitQuery>;
      }>,
      reply: FastifyReply,
    ) => {
      const { orgId, projectId, workerId } = request.params;
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), orgId);
      const row = await service.workerInProject(ctx.db, access, projectId, workerId);
      service.requireControl(access, row);
      if (row.container_id === null) throw busy(row, verb);
      lifecycle.registry.peer(row.node_id);
      const worker = await transition(row, from, next, verb, move, request.query.wait);
      if (worker === undefined) throw notFound('Worker');
      return reply.code(202).send(worker);
    };
  }

  router.get('/orgs/:orgId/projects/:projectId/workers', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listWorkers',
      summary: 'List workers',
      description: "The project's workers, oldest first. Any member may list them.",
      params: ProjectWorkersParams,
      response: { 200: Type.Array(Worker) },
    },
    handler: async (request) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      return service.listWorkers(ctx.db, access, request.params.projectId);
    },
  });

  router.post('/orgs/:orgId/projects/:projectId/workers', {
    config: { access: 'authenticated' },
    schema: {
      tags,
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
      response: { 201: Worker },
    },
    handler: async (request, reply) => {
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), request.params.orgId);
      service.requireSpawn(access);
      const project = await projectInOrg(ctx.db, access, request.params.projectId);
      const node = await service.placeWorker(
        ctx.db,
        access,
        lifecycle.registry,
        request.body.nodeId,
      );
      // A pre-built image holds the default branches; a worker on another branch clones afresh.
      const image =
        request.body.branch === undefined
          ? await currentImage(ctx, project, node.id)
          : ctx.config.workerImage;
      const row = await service.createWorkerRow(ctx.db, access, project, node, image, request.body);
      const task = lifecycle.create(row);
      if (request.query.wait === true) await task;
      const now = (await repository.findWorker(ctx.db, row.id)) ?? row;
      return reply.code(201).send(service.toWorker(now, node.public_address));
    },
  });

  router.get('/orgs/:orgId/projects/:projectId/workers/:workerId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWorker',
      summary: 'Get a worker',
      description: 'Its state (and the reason of a failure), checkouts, ports and their URLs.',
      params: WorkerParams,
      response: { 200: Worker },
    },
    handler: async (request) => {
      const { orgId, projectId, workerId } = request.params;
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), orgId);
      const row = await service.workerInProject(ctx.db, access, projectId, workerId);
      return service.presentWorker(ctx.db, row);
    },
  });

  router.post('/orgs/:orgId/projects/:projectId/workers/:workerId/stop', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'stopWorker',
      summary: 'Stop a worker',
      description:
        'From `ready` (or `failed` with a container): `stopping`, then `stopped`. Files are kept; ' +
        'terminal sessions and background commands end with the container. 409 ' +
        "`worker_state_conflict` from other states. The worker's owner, or an owner or admin.",
      params: WorkerParams,
      querystring: WaitQuery,
      response: { 202: Worker },
    },
    handler: powerMove(['ready', 'failed'], 'stopping', 'stop', (moved) => lifecycle.stop(moved)),
  });

  router.post('/orgs/:orgId/projects/:projectId/workers/:workerId/start', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'startWorker',
      summary: 'Start a worker',
      description:
        'From `stopped` (or `failed` with a container): `starting`, then `ready`; repositories missing ' +
        'from the container are cloned again. 409 `worker_state_conflict` from other states.',
      params: WorkerParams,
      querystring: WaitQuery,
      response: { 202: Worker },
    },
    handler: powerMove(['stopped', 'failed'], 'starting', 'start', (moved) =>
      lifecycle.start(moved),
    ),
  });

  router.delete('/orgs/:orgId/projects/:projectId/workers/:workerId', {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'deleteWorker',
      summary: 'Delete a worker',
      description:
        'Removes the container and its files, then the worker (state `deleting` meanwhile; answers 202 ' +
        'with it, or 204 once gone with `wait=true`). A node that cannot be reached gives 503 ' +
        '`node_offline` unless `force=true`.',
      params: WorkerParams,
      querystring: DeleteWorkerQuery,
      response: { 202: Worker, 204: NoContent },
    },
    handler: async (request, reply) => {
      const { orgId, projectId, workerId } = request.params;
      const access = await orgs.orgAccess(ctx.db, requirePrincipal(request), orgId);
      const row = await service.workerInProject(ctx.db, access, projectId, workerId);
      service.requireControl(access, row);
      const force = request.query.force === true;
      if (!force && row.container_id !== null) lifecycle.registry.peer(row.node_id);
      const others: WorkerState[] = [
        'creating',
        'ready',
        'stopping',
        'stopped',
        'starting',
        'failed',
        'lost',
      ];
      const worker = await transition(
        row,
        force ? [...others, 'deleting'] : others,
        'deleting',
        'be deleted',
        (moved) => lifecycle.remove(moved, force),
        request.query.wait,
      );
      if (worker === undefined) return reply.code(204).send(null);
      return reply.code(202).send(worker);
    },
  });
}
