import Type from 'typebox';
import { CommandInfo, CommandOutput, ExecResult } from '../../agent/protocol/schemas.js';
import { AppError } from '../../http/errors.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { agentCall } from './agent-call.js';
import { CommandParams, ExecBody } from './inspect-schemas.js';
import { WorkerParams } from './schemas.js';
import { TARGET_ERRORS, type WorkerTarget, workerTarget } from './target.js';

const WORKER = '/orgs/:orgId/projects/:projectId/workers/:workerId';
const DEFAULT_TIMEOUT_MS = 10 * 60_000;
/** Output a waiting exec answers with, per channel; the rest is dropped (`truncated`). */
const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

function argv(command: ExecBody['command']): string[] {
  return typeof command === 'string' ? ['/bin/sh', '-c', command] : command;
}

/** The one answer for a command this worker does not have, whoever does have it. */
function commandNotFound(): AppError {
  return new AppError('command_not_found', 'This worker has no command with this id');
}

/**
 * A command of this worker's container, else 404 `command_not_found`: a
 * command of another worker (on the same node, where the agent knows it)
 * gets exactly the answer of an id that never existed, so these routes tell
 * nothing about ids outside the worker.
 */
async function ownCommand(target: WorkerTarget, commandId: string) {
  const output = await agentCall(() => target.peer.request('command.get', { commandId })).catch(
    (error: unknown) => {
      throw error instanceof AppError && error.code === 'command_not_found'
        ? commandNotFound()
        : error;
    },
  );
  if (output.containerId !== target.containerId) throw commandNotFound();
  return output;
}

/**
 * Running commands in a worker, waiting or in the background, and following
 * them. None holds a transaction open while the agent works.
 */
export function execRoutes(router: Router, ctx: AppContext): void {
  const { registry } = ctx.workers;
  const { route } = orgRoutes(router, ctx, ['Workers']);

  route({
    method: 'POST',
    url: `${WORKER}/exec`,
    key: ['workers:exec'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'execInWorker',
    summary: 'Run a command',
    description:
      'Runs in the worker (as its default user, in `/workspaces` unless `workdir` says otherwise). ' +
      'By default waits for the exit and answers 200 with the exit code and output (each stream capped ' +
      'at 4 MiB, `truncated` then; killed after `timeoutMs`, `timedOut` then). With `background: true` ' +
      'answers 202 at once with the command record; the command keeps running whatever the client does. ' +
      'A background command writes its output and exit status to files in the container ' +
      '(`/tmp/.sparrow/commands/{id}`, through `sh`, `mkfifo` and `tee`): after a restart of the node ' +
      'agent it is listed again, its output and status still served, and a running one is followed to ' +
      'its end. In an image without those tools it lives in the agent only, which forgets it when it restarts.',
    params: WorkerParams,
    body: ExecBody,
    response: ExecResult,
    otherResponses: { 202: CommandInfo },
    errors: TARGET_ERRORS,
    handler: async (db, access, request, reply) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      const { command, env, workdir, stdin, timeoutMs } = request.body;
      const common = {
        containerId: target.containerId,
        command: argv(command),
        ...(env === undefined ? {} : { env }),
        ...(workdir === undefined ? {} : { workdir }),
      };
      if (request.body.background === true) {
        const info = await agentCall(() => target.peer.request('command.start', common));
        return reply.code(202).send(info);
      }
      const limit = timeoutMs ?? DEFAULT_TIMEOUT_MS;
      return agentCall(() =>
        target.peer.request(
          'exec.run',
          {
            ...common,
            timeoutMs: limit,
            maxOutputBytes: MAX_OUTPUT_BYTES,
            ...(stdin === undefined ? {} : { stdin: Buffer.from(stdin).toString('base64') }),
          },
          limit + 30_000,
        ),
      );
    },
  });

  route({
    method: 'GET',
    url: `${WORKER}/commands`,
    key: ['workers:exec'],
    permission: 'workers.use',
    operationId: 'listWorkerCommands',
    summary: 'List background commands',
    description: 'Commands started with `background: true` in this worker, running or ended.',
    params: WorkerParams,
    response: Type.Array(CommandInfo),
    errors: TARGET_ERRORS,
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      const { commands } = await agentCall(() =>
        target.peer.request('command.list', { containerId: target.containerId }),
      );
      return commands;
    },
  });

  route({
    method: 'GET',
    url: `${WORKER}/commands/:commandId`,
    key: ['workers:exec'],
    permission: 'workers.use',
    operationId: 'getWorkerCommand',
    summary: 'Get a background command',
    description:
      'Its state (`running`, `exited`, `cancelled`, `failed`), exit code and output so far (the agent ' +
      'keeps the last 1 MiB; `droppedBytes` counts what went before).',
    params: CommandParams,
    response: CommandOutput,
    errors: [...TARGET_ERRORS, 'command_not_found'],
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      return ownCommand(target, request.params.commandId);
    },
  });

  route({
    method: 'POST',
    url: `${WORKER}/commands/:commandId/cancel`,
    key: ['workers:exec'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'cancelWorkerCommand',
    summary: 'Cancel a background command',
    description: 'Kills its process group; a command that already ended is answered as it is.',
    params: CommandParams,
    response: CommandInfo,
    errors: [...TARGET_ERRORS, 'command_not_found'],
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      await ownCommand(target, request.params.commandId);
      return agentCall(() =>
        target.peer.request('command.cancel', { commandId: request.params.commandId }),
      );
    },
  });
}
