import * as z from 'zod';
import { ToolFailure } from '../dispatch.js';
import { workerPath } from '../org-resolution.js';
import { defineTool, type Tool, Uuid, WorkerRef } from '../tool.js';

const CommandInfo = z.looseObject({
  id: z.string(),
  command: z.array(z.string()),
  state: z.enum(['running', 'exited', 'cancelled', 'failed']),
  exitCode: z.number().nullable(),
  error: z.string().nullable(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
});

const CommandOutput = CommandInfo.extend({
  stdout: z.string(),
  stderr: z.string(),
  droppedBytes: z
    .number()
    .describe('Output bytes dropped before what is shown (the last 1 MiB is kept).'),
});

const commandId = Uuid()
  .describe('The command, as run_command with background: true answered it.')
  .meta({ examples: ['0192f0c7-4d5e-7f6a-8b7c-8d9e0f1a2b3c'] });

function commandPath(path: string, id: string): string {
  return `${path}/commands/${id}`;
}

export const commandTools: readonly Tool[] = [
  defineTool({
    name: 'run_command',
    title: 'Run a command in a worker',
    description:
      'Runs a command in the worker (as its default user, in /workspaces unless workdir says). By default waits ' +
      'for it to exit and answers exitCode, stdout and stderr (each capped at 4 MiB). With background: true it ' +
      'answers at once with a command id; the command keeps running whatever happens to this client: follow it ' +
      'with get_command, stop it with cancel_command. Use background for anything longer than a minute. Needs workers:exec.',
    input: {
      ...WorkerRef,
      command: z
        .union([z.string().min(1).max(65536), z.array(z.string()).min(1).max(1024)])
        .describe('A shell command line (run with sh -c), or an argument vector.')
        .meta({ examples: ['npm test', ['git', 'log', '-1', '--oneline']] }),
      background: z.boolean().optional().describe('Start it and answer at once (see above).'),
      workdir: z
        .string()
        .min(1)
        .max(1024)
        .regex(/^\//)
        .optional()
        .describe('The working directory.')
        .meta({ examples: ['/workspaces/project'] }),
      env: z
        .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string())
        .optional()
        .describe('Extra environment variables.')
        .meta({ examples: [{ CI: '1' }] }),
      stdin: z
        .string()
        .optional()
        .describe('Text written to standard input, which is then closed.'),
      timeoutMs: z
        .number()
        .int()
        .min(1)
        .max(3_600_000)
        .optional()
        .describe('Waiting mode only: kill the command after this long (default 10 minutes).')
        .meta({ examples: [60000] }),
    },
    output: {
      background: z.boolean(),
      exitCode: z.number().nullable().optional().describe('Waiting mode: the exit code.'),
      stdout: z.string().optional(),
      stderr: z.string().optional(),
      timedOut: z.boolean().optional(),
      truncated: z.boolean().optional(),
      command: CommandInfo.optional().describe('Background mode: the command record, with its id.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: async (ctx, { orgId, projectId, workerId, background, ...body }) => {
      const path = await workerPath(ctx, 'run_command', { orgId, projectId, workerId });
      const { status, body: answer } = await ctx.dispatcher.call('run_command', {
        method: 'POST',
        path: `${path}/exec`,
        body: { ...body, ...(background === true ? { background } : {}) },
      });
      if (status === 202) return { background: true, command: CommandInfo.parse(answer) };
      const result = z
        .object({
          exitCode: z.number().nullable(),
          stdout: z.string(),
          stderr: z.string(),
          timedOut: z.boolean(),
          truncated: z.boolean(),
        })
        .parse(answer);
      return { background: false, ...result };
    },
  }),
  defineTool({
    name: 'get_command',
    title: 'Get a background command',
    description:
      'A command started with run_command background: true: its state (running, exited, cancelled, failed), exit code and output so far. Poll it until state is not running. Needs workers:exec.',
    input: { ...WorkerRef, commandId },
    output: { command: CommandOutput },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, { commandId: id, ...ref }) => {
      const path = await workerPath(ctx, 'get_command', ref);
      const body = await ctx.dispatcher.read('get_command', {
        method: 'GET',
        path: commandPath(path, id),
      });
      return { command: CommandOutput.parse(body) };
    },
  }),
  defineTool({
    name: 'list_commands',
    title: 'List background commands',
    description:
      'The commands started in a worker with background: true, running or ended (without their output; get_command has it). Needs workers:exec.',
    input: WorkerRef,
    output: { commands: z.array(CommandInfo) },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, ref) => {
      const path = await workerPath(ctx, 'list_commands', ref);
      const body = await ctx.dispatcher.read('list_commands', {
        method: 'GET',
        path: `${path}/commands`,
      });
      return { commands: z.array(CommandInfo).parse(body) };
    },
  }),
  defineTool({
    name: 'cancel_command',
    title: 'Cancel a background command',
    description:
      'Kills a background command (its whole process group). A command that already ended is answered as it is. Needs workers:exec.',
    input: { ...WorkerRef, commandId },
    output: { command: CommandInfo },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: async (ctx, { commandId: id, ...ref }) => {
      const path = await workerPath(ctx, 'cancel_command', ref);
      const body = await ctx.dispatcher.read('cancel_command', {
        method: 'POST',
        path: `${commandPath(path, id)}/cancel`,
      });
      if (body === '') throw new ToolFailure('cancel_command: the API answered no command');
      return { command: CommandInfo.parse(body) };
    },
  }),
];
