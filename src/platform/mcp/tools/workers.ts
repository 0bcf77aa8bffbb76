import * as z from 'zod';
import { resolveOrg, workerPath } from '../org-resolution.js';
import { defineTool, Ids, NamedRecord, type Tool, Uuid, WorkerRef } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

export const Worker = NamedRecord.extend({
  projectId: z.string(),
  orgId: z.string(),
  state: z
    .string()
    .describe(
      'creating, ready, stopping, stopped, starting, deleting, failed or lost (stateReason says why).',
    ),
  stateReason: z.string().nullable(),
  branch: z.string().nullable(),
  urls: z.array(z.string()).describe('Public URLs of the forwarded ports.'),
}).describe('A worker: an isolated workspace container spawned from a project.');

const wait = z
  .boolean()
  .default(true)
  .describe(
    'Answer once the move has settled (ready, stopped, failed or gone). false: answer at once and poll get_worker.',
  );

type Move = 'start' | 'stop';

function moveTool(move: Move): Tool {
  const name = `${move}_worker`;
  return defineTool({
    name,
    title: move === 'start' ? 'Start a worker' : 'Stop a worker',
    description:
      move === 'start'
        ? 'Starts a stopped (or failed) worker again; files are kept and missing repositories cloned. Needs workers:write.'
        : 'Stops a worker: its container stops, its files are kept, start_worker resumes it. Needs workers:write.',
    input: { ...WorkerRef, wait },
    output: { worker: Worker },
    annotations: { readOnlyHint: false, destructiveHint: move === 'stop', idempotentHint: true },
    run: async (ctx, { wait: settle, ...ref }) => {
      const path = await workerPath(ctx, name, ref);
      const body = await ctx.dispatcher.read(name, {
        method: 'POST',
        path: `${path}/${move}`,
        query: { wait: settle },
      });
      return { worker: Worker.parse(body) };
    },
  });
}

export const workerTools: readonly Tool[] = [
  defineTool({
    name: 'list_workers',
    title: 'List workers',
    description:
      'The workers of one project, or of every project of the organization when projectId is left out, with state and URLs. Needs workers:read (and projects:read without projectId).',
    input: { orgId: Ids.orgId, projectId: Ids.projectId.optional() },
    output: { workers: z.array(Worker) },
    annotations: READ,
    run: async (ctx, { orgId, projectId }) => {
      const org = await resolveOrg(ctx, 'list_workers', orgId);
      const projects =
        projectId === undefined
          ? z
              .array(NamedRecord)
              .parse(
                await ctx.dispatcher.read('list_workers', {
                  method: 'GET',
                  path: `/orgs/${org}/projects`,
                }),
              )
              .map((project) => project.id)
          : [projectId];
      const lists = await Promise.all(
        projects.map((id) =>
          ctx.dispatcher.read('list_workers', {
            method: 'GET',
            path: `/orgs/${org}/projects/${id}/workers`,
          }),
        ),
      );
      return { workers: lists.flatMap((list) => z.array(Worker).parse(list)) };
    },
  }),
  defineTool({
    name: 'get_worker',
    title: 'Get a worker',
    description:
      'One worker by id: state, node, branch, repositories (and whether each was cloned), ports and URLs. Needs workers:read.',
    input: WorkerRef,
    output: { worker: Worker },
    annotations: READ,
    run: async (ctx, ref) => {
      const path = await workerPath(ctx, 'get_worker', ref);
      return {
        worker: Worker.parse(await ctx.dispatcher.read('get_worker', { method: 'GET', path })),
      };
    },
  }),
  defineTool({
    name: 'create_worker',
    title: 'Create a worker',
    description:
      "Spawns a worker from a project on a node (the least loaded online one unless nodeId says) and, by default, waits until it is ready with the project's repositories cloned. Needs workers:write.",
    input: {
      orgId: Ids.orgId,
      projectId: Ids.projectId,
      name: z
        .string()
        .min(1)
        .max(100)
        .optional()
        .describe('A name; default: generated.')
        .meta({ examples: ['fix-login-bug'] }),
      branch: z
        .string()
        .min(1)
        .max(255)
        .optional()
        .describe(
          'The branch to check out (created when missing); default: the repository default.',
        )
        .meta({ examples: ['feature/login'] }),
      nodeId: Uuid().optional().describe('Place it on this node (list_nodes).'),
      wait,
    },
    output: { worker: Worker },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: async (ctx, { orgId, projectId, wait: settle, ...body }) => {
      const org = await resolveOrg(ctx, 'create_worker', orgId);
      const created = await ctx.dispatcher.read('create_worker', {
        method: 'POST',
        path: `/orgs/${org}/projects/${projectId}/workers`,
        query: { wait: settle },
        body,
      });
      return { worker: Worker.parse(created) };
    },
  }),
  moveTool('start'),
  moveTool('stop'),
  defineTool({
    name: 'delete_worker',
    title: 'Delete a worker',
    description:
      'Destroys a worker and its container, with every file in it. Cannot be undone. Needs workers:write.',
    input: {
      ...WorkerRef,
      wait,
      force: z
        .boolean()
        .optional()
        .describe('Forget the worker even when its node cannot be reached.'),
    },
    output: {
      deleted: z.boolean().describe('true once gone; false while it is still being deleted.'),
      worker: Worker.optional().describe('The worker, while its deletion goes on.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: async (ctx, { wait: settle, force, ...ref }) => {
      const path = await workerPath(ctx, 'delete_worker', ref);
      const { status, body } = await ctx.dispatcher.call('delete_worker', {
        method: 'DELETE',
        path,
        query: { wait: settle, force },
      });
      return status === 204 ? { deleted: true } : { deleted: false, worker: Worker.parse(body) };
    },
  }),
];
