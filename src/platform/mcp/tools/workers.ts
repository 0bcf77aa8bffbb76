import Type from 'typebox';
import { Project } from '../../projects/schemas.js';
import { DeleteWorkerQuery, SpawnWorkerBody, WaitQuery, Worker } from '../../workers/schemas.js';
import { resolveOrg, workerParams } from '../org-resolution.js';
import { ShownWorker } from '../records.js';
import { Args, annotated, defineTool, Ids, Result, type Tool, WorkerRef } from '../tool.js';
import { conform } from '../values.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Workers = Type.Array(Worker);
const Projects = Type.Array(Project);

/** The routes' `wait`, which the tools default to true (filled in as the arguments are checked). */
const wait = Type.Optional(
  annotated(WaitQuery.properties.wait, {
    description:
      'Answer once the move has settled (ready, stopped, failed or gone). false: answer at once and poll get_worker.',
    default: true,
  }),
);

type Move = 'start' | 'stop';

function moveTool(move: Move): Tool {
  const name = `${move}_worker`;
  const operation = move === 'start' ? 'startWorker' : 'stopWorker';
  return defineTool({
    name,
    title: move === 'start' ? 'Start a worker' : 'Stop a worker',
    description:
      move === 'start'
        ? 'Starts a stopped (or failed) worker again; files are kept and missing repositories cloned. Needs workers:write.'
        : 'Stops a worker: its container stops, its files are kept, start_worker resumes it. Needs workers:write.',
    input: Args({ ...WorkerRef, wait }),
    output: Result({ worker: ShownWorker }),
    operations: [operation],
    annotations: { readOnlyHint: false, destructiveHint: move === 'stop', idempotentHint: true },
    run: async (ctx, { wait: settle, ...ref }) => {
      const params = await workerParams(ctx, name, ref);
      const worker = await ctx.dispatcher.readAs(
        name,
        { operation, params: { ...params }, query: { wait: settle } },
        Worker,
      );
      return { worker };
    },
  });
}

export const workerTools: readonly Tool[] = [
  defineTool({
    name: 'list_workers',
    title: 'List workers',
    description:
      'The workers of one project, or of every project of the organization when projectId is left out, with state and URLs. Needs workers:read (and projects:read without projectId).',
    input: Args({ orgId: Ids.orgId, projectId: Type.Optional(Ids.projectId) }),
    output: Result({ workers: Type.Array(ShownWorker) }),
    operations: ['listProjects', 'listWorkers'],
    annotations: READ,
    run: async (ctx, { orgId, projectId }) => {
      const org = await resolveOrg(ctx, 'list_workers', orgId);
      const projects =
        projectId === undefined
          ? (
              await ctx.dispatcher.readAs(
                'list_workers',
                { operation: 'listProjects', params: { orgId: org } },
                Projects,
              )
            ).map((project) => project.id)
          : [projectId];
      const lists = await Promise.all(
        projects.map((id) =>
          ctx.dispatcher.readAs(
            'list_workers',
            { operation: 'listWorkers', params: { orgId: org, projectId: id } },
            Workers,
          ),
        ),
      );
      return { workers: lists.flat() };
    },
  }),
  defineTool({
    name: 'get_worker',
    title: 'Get a worker',
    description:
      'One worker by id: state, node, branch, repositories (and whether each was cloned), ports and URLs. Needs workers:read.',
    input: Args(WorkerRef),
    output: Result({ worker: ShownWorker }),
    operations: ['getWorker'],
    annotations: READ,
    run: async (ctx, ref) => {
      const params = await workerParams(ctx, 'get_worker', ref);
      const worker = await ctx.dispatcher.readAs(
        'get_worker',
        { operation: 'getWorker', params: { ...params } },
        Worker,
      );
      return { worker };
    },
  }),
  defineTool({
    name: 'create_worker',
    title: 'Create a worker',
    description:
      "Spawns a worker from a project on a node (the least loaded online one unless nodeId says) and, by default, waits until it is ready with the project's repositories cloned. Needs workers:write.",
    // The spawn route's body as it is, with the project, its organization and `wait`.
    input: Args({
      orgId: Ids.orgId,
      projectId: Ids.projectId,
      ...SpawnWorkerBody.properties,
      wait,
    }),
    output: Result({ worker: ShownWorker }),
    operations: ['spawnWorker'],
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: async (ctx, { orgId, projectId, wait: settle, ...body }) => {
      const org = await resolveOrg(ctx, 'create_worker', orgId);
      const worker = await ctx.dispatcher.readAs(
        'create_worker',
        {
          operation: 'spawnWorker',
          params: { orgId: org, projectId },
          query: { wait: settle },
          body,
        },
        Worker,
      );
      return { worker };
    },
  }),
  moveTool('start'),
  moveTool('stop'),
  defineTool({
    name: 'delete_worker',
    title: 'Delete a worker',
    description:
      'Destroys a worker and its container, with every file in it. Cannot be undone. Needs workers:write.',
    input: Args({ ...WorkerRef, wait, force: DeleteWorkerQuery.properties.force }),
    output: Result({
      deleted: Type.Boolean({
        description: 'true once gone; false while it is still being deleted.',
      }),
      worker: Type.Optional(
        annotated(ShownWorker, { description: 'The worker, while its deletion goes on.' }),
      ),
    }),
    operations: ['deleteWorker'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: async (ctx, { wait: settle, force, ...ref }) => {
      const params = await workerParams(ctx, 'delete_worker', ref);
      const { status, body } = await ctx.dispatcher.call('delete_worker', {
        operation: 'deleteWorker',
        params: { ...params },
        query: { wait: settle, force },
      });
      if (status === 204) return { deleted: true };
      return { deleted: false, worker: conform('delete_worker', Worker, body) };
    },
  }),
];
