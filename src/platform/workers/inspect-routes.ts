import Type from 'typebox';
import { ContainerStats, GitStatus } from '../../agent/protocol/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { orgRoutes } from '../access/org-route.js';
import { agentCall } from './agent-call.js';
import { GitStatusQuery, LogsQuery, PortsResponse } from './inspect-schemas.js';
import { WorkerParams } from './schemas.js';
import { presentWorker } from './service.js';
import { TARGET_ERRORS, workerTarget } from './target.js';

const WORKER = '/orgs/:orgId/projects/:projectId/workers/:workerId';

/** Read-only looks into a running worker: logs, stats, git status, ports. */
export function inspectRoutes(router: Router, ctx: AppContext): void {
  const { registry } = ctx.workers;
  const { route } = orgRoutes(router, ctx, ['Workers']);

  route({
    method: 'GET',
    url: `${WORKER}/logs`,
    key: ['workers:read'],
    permission: 'workers.use',
    operationId: 'getWorkerLogs',
    summary: 'Container logs',
    description:
      "The container's output (its main process), stdout and stderr interleaved, as text/plain; " +
      '`tail` keeps the last lines. Follow it live over `GET /api/workers/{id}/terminal?mode=logs`.',
    params: WorkerParams,
    querystring: LogsQuery,
    response: Type.String({ description: 'text/plain' }),
    errors: TARGET_ERRORS,
    handler: async (db, access, request, reply) => {
      const target = await workerTarget(db, registry, access, request.params, false);
      const { text } = await agentCall(() =>
        target.peer.request('container.logs', {
          containerId: target.containerId,
          ...(request.query.tail === undefined ? {} : { tail: request.query.tail }),
        }),
      );
      reply.type('text/plain; charset=utf-8');
      return text;
    },
  });

  route({
    method: 'GET',
    url: `${WORKER}/stats`,
    key: ['workers:read'],
    permission: 'workers.use',
    operationId: 'getWorkerStats',
    summary: 'CPU and memory',
    description: 'CPU use over a short sample (100 is one full core), memory and process count.',
    params: WorkerParams,
    response: ContainerStats,
    errors: TARGET_ERRORS,
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, false);
      return agentCall(() =>
        target.peer.request('container.stats', { containerId: target.containerId }),
      );
    },
  });

  route({
    method: 'GET',
    url: `${WORKER}/git-status`,
    key: ['workers:read'],
    permission: 'workers.use',
    operationId: 'getWorkerGitStatus',
    summary: 'Git status',
    description:
      'For each repository of the worker (or the one at `path`): branch, commit, upstream, ahead and ' +
      'behind counts, and changed files as porcelain v2 codes.',
    params: WorkerParams,
    querystring: GitStatusQuery,
    response: Type.Object({ repositories: Type.Array(GitStatus) }),
    errors: TARGET_ERRORS,
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, false);
      const paths =
        request.query.path === undefined
          ? target.row.repositories.map((repository) => repository.path)
          : [request.query.path];
      const repositories = [];
      for (const path of paths) {
        repositories.push(
          await agentCall(() =>
            target.peer.request('container.gitStatus', { containerId: target.containerId, path }),
          ),
        );
      }
      return { repositories };
    },
  });

  route({
    method: 'GET',
    url: `${WORKER}/ports`,
    key: ['workers:read'],
    permission: 'workers.use',
    operationId: 'listWorkerPorts',
    summary: 'Listening ports',
    description:
      'The TCP ports processes in the container listen on now, and the forwarded ports with their URLs.',
    params: WorkerParams,
    response: PortsResponse,
    errors: TARGET_ERRORS,
    handler: async (db, access, request) => {
      const target = await workerTarget(db, registry, access, request.params, false);
      const { ports } = await agentCall(() =>
        target.peer.request('container.ports', { containerId: target.containerId }),
      );
      const worker = await presentWorker(db, target.row);
      return { listening: ports, forwarded: worker.ports };
    },
  });
}
