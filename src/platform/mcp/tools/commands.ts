import Type from 'typebox';
import { CommandInfo, CommandOutput, ExecResult } from '../../../agent/protocol/schemas.js';
import { Uuid } from '../../../http/schemas.js';
import { ExecBody } from '../../workers/inspect-schemas.js';
import { ToolFailure } from '../dispatch.js';
import { workerParams } from '../org-resolution.js';
import { ShownCommand, ShownCommandOutput } from '../records.js';
import { Args, annotated, defineTool, Result, type Tool, WorkerRef } from '../tool.js';
import { conform } from '../values.js';

const CommandInfos = Type.Array(CommandInfo);

/** What the tool answers of a command that ran to its end (the route's answer without its duration). */
const Finished = Type.Pick(ExecResult, ['exitCode', 'stdout', 'stderr', 'timedOut', 'truncated']);

const commandId = annotated(Uuid, {
  description: 'The command, as run_command with background: true answered it.',
  examples: ['0192f0c7-4d5e-7f6a-8b7c-8d9e0f1a2b3c'],
});

export const commandTools: readonly Tool[] = [
  defineTool({
    name: 'run_command',
    title: 'Run a command in a worker',
    description:
      'Runs a command in the worker (as its default user, in /workspaces unless workdir says). By default waits ' +
      'for it to exit and answers exitCode, stdout and stderr (each capped at 4 MiB). With background: true it ' +
      'answers at once with a command id; the command keeps running whatever happens to this client: follow it ' +
      'with get_command, stop it with cancel_command. Use background for anything longer than a minute. Needs workers:exec.',
    // The exec route's body as it is, with the worker.
    input: Args({ ...WorkerRef, ...ExecBody.properties }),
    output: Result({
      background: Type.Boolean(),
      ...Type.Partial(Finished).properties,
      command: Type.Optional(
        annotated(ShownCommand, {
          description: 'Background mode: the command record, with its id.',
        }),
      ),
    }),
    operations: ['execInWorker'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: async (ctx, { orgId, projectId, workerId, background, ...body }) => {
      const params = await workerParams(ctx, 'run_command', { orgId, projectId, workerId });
      const { status, body: answer } = await ctx.dispatcher.call('run_command', {
        operation: 'execInWorker',
        params: { ...params },
        body: { ...body, ...(background === true ? { background } : {}) },
      });
      if (status === 202) {
        return { background: true, command: conform('run_command', CommandInfo, answer) };
      }
      const { exitCode, stdout, stderr, timedOut, truncated } = conform(
        'run_command',
        ExecResult,
        answer,
      );
      return { background: false, exitCode, stdout, stderr, timedOut, truncated };
    },
  }),
  defineTool({
    name: 'get_command',
    title: 'Get a background command',
    description:
      'A command started with run_command background: true: its state (running, exited, cancelled, failed), exit code and output so far. Poll it until state is not running. Needs workers:exec.',
    input: Args({ ...WorkerRef, commandId }),
    output: Result({ command: ShownCommandOutput }),
    operations: ['getWorkerCommand'],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, { commandId: id, ...ref }) => {
      const params = await workerParams(ctx, 'get_command', ref);
      const command = await ctx.dispatcher.readAs(
        'get_command',
        { operation: 'getWorkerCommand', params: { ...params, commandId: id } },
        CommandOutput,
      );
      return { command };
    },
  }),
  defineTool({
    name: 'list_commands',
    title: 'List background commands',
    description:
      'The commands started in a worker with background: true, running or ended (without their output; get_command has it). Needs workers:exec.',
    input: Args(WorkerRef),
    output: Result({ commands: Type.Array(ShownCommand) }),
    operations: ['listWorkerCommands'],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
    run: async (ctx, ref) => {
      const params = await workerParams(ctx, 'list_commands', ref);
      const commands = await ctx.dispatcher.readAs(
        'list_commands',
        { operation: 'listWorkerCommands', params: { ...params } },
        CommandInfos,
      );
      return { commands };
    },
  }),
  defineTool({
    name: 'cancel_command',
    title: 'Cancel a background command',
    description:
      'Kills a background command (its whole process group). A command that already ended is answered as it is. Needs workers:exec.',
    input: Args({ ...WorkerRef, commandId }),
    output: Result({ command: ShownCommand }),
    operations: ['cancelWorkerCommand'],
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: async (ctx, { commandId: id, ...ref }) => {
      const params = await workerParams(ctx, 'cancel_command', ref);
      const body = await ctx.dispatcher.read('cancel_command', {
        operation: 'cancelWorkerCommand',
        params: { ...params, commandId: id },
      });
      if (body === '') throw new ToolFailure('cancel_command: the API answered no command');
      return { command: conform('cancel_command', CommandInfo, body) };
    },
  }),
];
