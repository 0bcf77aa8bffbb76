import Type from 'typebox';
import { TerminalInfo } from '../../agent/protocol/schemas.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { agentCall } from './agent-call.js';
import { CreateTerminalBody, TerminalParams } from './inspect-schemas.js';
import { workerLifecycle } from './lifecycle.js';
import { WorkerParams } from './schemas.js';
import { workerTarget } from './target.js';

const tags = ['Terminals'];
const WORKER = '/orgs/:orgId/projects/:projectId/workers/:workerId';

/** Named persistent terminal sessions of a worker. */
export function terminalRoutes(router: Router, ctx: AppContext): void {
  const { registry } = workerLifecycle(ctx);

  router.get(`${WORKER}/terminals`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listWorkerTerminals',
      summary: 'List terminal sessions',
      description:
        'Sessions alive in the worker, with their size and how many clients are attached.',
      params: WorkerParams,
      response: { 200: Type.Array(TerminalInfo) },
    },
    handler: async (request) => {
      const target = await workerTarget(ctx, registry, request, request.params, true);
      const { terminals } = await agentCall(() =>
        target.peer.request('terminal.list', { containerId: target.containerId }),
      );
      return terminals;
    },
  });

  router.post(`${WORKER}/terminals`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'createWorkerTerminal',
      summary: 'Create a terminal session',
      description:
        'Starts a program (default: a login shell, bash when the image has it) on a pseudo-terminal. ' +
        'It keeps running with no client attached, until it exits, the session is killed or the worker ' +
        'stops. Attach over `GET /api/workers/{workerId}/terminal?mode=terminal&session=NAME`. The agent ' +
        'keeps a headless terminal emulator per session, so reattaching restores the screen and scrollback.',
      params: WorkerParams,
      body: CreateTerminalBody,
      response: { 201: TerminalInfo },
    },
    handler: async (request, reply) => {
      const target = await workerTarget(ctx, registry, request, request.params, true);
      const info = await agentCall(() =>
        target.peer.request('terminal.create', {
          containerId: target.containerId,
          ...request.body,
        }),
      );
      return reply.code(201).send(info);
    },
  });

  router.delete(`${WORKER}/terminals/:name`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'killWorkerTerminal',
      summary: 'Kill a terminal session',
      description:
        'Ends its program; attached clients get an `exit` frame. 404 `terminal_not_found`.',
      params: TerminalParams,
      response: { 204: NoContent },
    },
    handler: async (request, reply) => {
      const target = await workerTarget(ctx, registry, request, request.params, true);
      await agentCall(() =>
        target.peer.request('terminal.kill', {
          containerId: target.containerId,
          name: request.params.name,
        }),
      );
      return reply.code(204).send(null);
    },
  });
}
