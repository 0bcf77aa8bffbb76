import Type from 'typebox';
import { TerminalInfo } from '../../agent/protocol/schemas.js';
import { NoContent } from '../../http/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { agentCall } from './agent-call.js';
import { CreateTerminalBody, TerminalParams } from './inspect-schemas.js';
import { WorkerParams } from './schemas.js';
import { TARGET_ERRORS, workerTarget } from './target.js';

const WORKER = '/orgs/:orgId/projects/:projectId/workers/:workerId';

/** Named persistent terminal sessions of a worker. */
export function terminalRoutes(router: Router, ctx: AppContext): void {
  const { registry } = ctx.workers;
  const { route } = orgRoutes(router, ctx, ['Terminals']);

  route({
    method: 'GET',
    url: `${WORKER}/terminals`,
    key: ['workers:exec'],
    permission: 'workers.use',
    operationId: 'listWorkerTerminals',
    summary: 'List terminal sessions',
    description:
      'Sessions alive in the worker, with their size and how many clients are attached; those tmux ' +
      'holds are listed from the container, so they are listed again after an agent restart.',
    params: WorkerParams,
    response: Type.Array(TerminalInfo),
    errors: TARGET_ERRORS,
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      const { terminals } = await agentCall(() =>
        target.peer.request('terminal.list', { containerId: target.containerId }),
      );
      return terminals;
    },
  });

  route({
    method: 'POST',
    url: `${WORKER}/terminals`,
    key: ['workers:exec'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'createWorkerTerminal',
    summary: 'Create a terminal session',
    description:
      'Starts a program (default: a login shell, bash when the image has it) on a pseudo-terminal. ' +
      'It keeps running with no client attached, until it exits, the session is killed or the worker ' +
      'stops. Attach over `GET /api/workers/{workerId}/terminal?mode=terminal&session=NAME`. When the ' +
      "worker's image has tmux (the default image does), tmux holds the session inside the container and " +
      'it outlives a restart of the node agent (listed again, reattached with screen and scrollback). ' +
      'Either way every byte the program writes reaches each client as written, and a reattach restores ' +
      "the screen and the last lines of scrollback, each once and in order, from the agent's headless " +
      'terminal emulator. Without tmux the agent holds the session and an agent restart forgets it, ' +
      'although its program keeps running. Sessions created with a `user` are held by the agent.',
    params: WorkerParams,
    body: CreateTerminalBody,
    response: TerminalInfo,
    status: 201,
    errors: [...TARGET_ERRORS, 'terminal_exists'],
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      return agentCall(() =>
        target.peer.request('terminal.create', {
          containerId: target.containerId,
          ...request.body,
        }),
      );
    },
  });

  route({
    method: 'DELETE',
    url: `${WORKER}/terminals/:name`,
    key: ['workers:exec'],
    permission: 'workers.use',
    transaction: false,
    operationId: 'killWorkerTerminal',
    summary: 'Kill a terminal session',
    description:
      'Ends its program; attached clients get an `exit` frame. 404 `terminal_not_found`.',
    params: TerminalParams,
    response: NoContent,
    errors: [...TARGET_ERRORS, 'terminal_not_found'],
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, true);
      await agentCall(() =>
        target.peer.request('terminal.kill', {
          containerId: target.containerId,
          name: request.params.name,
        }),
      );
      return null;
    },
  });
}
