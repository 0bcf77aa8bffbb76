import * as z from 'zod';
import { workerPath } from '../org-resolution.js';
import { defineTool, Ids, type Tool, WorkerRef } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const GitRepository = z.looseObject({
  path: z.string(),
  branch: z.string().nullable(),
  commit: z.string().nullable(),
  ahead: z.number().nullable(),
  behind: z.number().nullable(),
  clean: z.boolean(),
  files: z.array(z.looseObject({ path: z.string() })),
});

export const inspectTools: readonly Tool[] = [
  defineTool({
    name: 'get_worker_logs',
    title: "Read a worker's logs",
    description:
      "The last lines of the worker container's output (its main process: start-up, cloning). " +
      'For a command you ran, read its output from run_command or get_command instead. Needs workers:read.',
    input: { ...WorkerRef, tail: Ids.tail },
    output: { logs: z.string() },
    annotations: READ,
    text: (result) => result.logs,
    run: async (ctx, { tail, ...ref }) => {
      const path = await workerPath(ctx, 'get_worker_logs', ref);
      const body = await ctx.dispatcher.read('get_worker_logs', {
        method: 'GET',
        path: `${path}/logs`,
        query: { tail: tail ?? 200 },
      });
      return { logs: typeof body === 'string' ? body : JSON.stringify(body) };
    },
  }),
  defineTool({
    name: 'get_worker_git_status',
    title: 'Git status of a worker',
    description:
      'Each repository checkout of the worker: branch, commit, upstream, ahead/behind counts, whether it is clean and the changed files. Needs workers:read.',
    input: {
      ...WorkerRef,
      path: z
        .string()
        .min(2)
        .max(1024)
        .regex(/^\//)
        .optional()
        .describe('One checkout; default: every repository of the worker.')
        .meta({ examples: ['/workspaces/project'] }),
    },
    output: { repositories: z.array(GitRepository) },
    annotations: READ,
    run: async (ctx, { path: checkout, ...ref }) => {
      const path = await workerPath(ctx, 'get_worker_git_status', ref);
      const body = await ctx.dispatcher.read('get_worker_git_status', {
        method: 'GET',
        path: `${path}/git-status`,
        query: { path: checkout },
      });
      return z.object({ repositories: z.array(GitRepository) }).parse(body);
    },
  }),
  defineTool({
    name: 'list_worker_ports',
    title: "List a worker's ports",
    description:
      "TCP ports a process in the worker listens on right now, and the project's forwarded ports with their public URLs. Needs workers:read.",
    input: WorkerRef,
    output: {
      listening: z.array(z.looseObject({ port: z.number(), address: z.string() })),
      forwarded: z.array(z.looseObject({ port: z.number(), url: z.string().nullable() })),
    },
    annotations: READ,
    run: async (ctx, ref) => {
      const path = await workerPath(ctx, 'list_worker_ports', ref);
      const body = await ctx.dispatcher.read('list_worker_ports', {
        method: 'GET',
        path: `${path}/ports`,
      });
      return z
        .object({
          listening: z.array(z.looseObject({ port: z.number(), address: z.string() })),
          forwarded: z.array(z.looseObject({ port: z.number(), url: z.string().nullable() })),
        })
        .parse(body);
    },
  }),
  defineTool({
    name: 'list_worker_terminals',
    title: "List a worker's terminals",
    description:
      'The persistent terminal sessions of a worker (they outlive their clients), with how many clients are attached. Needs workers:exec.',
    input: WorkerRef,
    output: {
      terminals: z.array(
        z.looseObject({ name: z.string(), command: z.array(z.string()), attachments: z.number() }),
      ),
    },
    annotations: READ,
    run: async (ctx, ref) => {
      const path = await workerPath(ctx, 'list_worker_terminals', ref);
      const body = await ctx.dispatcher.read('list_worker_terminals', {
        method: 'GET',
        path: `${path}/terminals`,
      });
      return {
        terminals: z
          .array(
            z.looseObject({
              name: z.string(),
              command: z.array(z.string()),
              attachments: z.number(),
            }),
          )
          .parse(body),
      };
    },
  }),
];
