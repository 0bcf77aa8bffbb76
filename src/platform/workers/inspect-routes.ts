import Type from 'typebox';
import { ContainerStats, GitStatus } from '../../agent/protocol/schemas.js';
import type { AppContext, Router } from '../../module.js';
import { agentCall } from './agent-call.js';
import { GitStatusQuery, LogsQuery, PortsResponse } from './inspect-schemas.js';
import { workerLifecycle } from './lifecycle.js';
import { WorkerParams } from './schemas.js';
import { presentWorker } from './service.js';
import { workerTarget } from './target.js';

const tags = ['Workers'];
const WORKER = '/orgs/:orgId/projects/:projectId/workers/:workerId';

/** Read-only looks into a running worker: logs, stats, git status, ports. */
export function inspectRoutes(router: Router, ctx: AppContext): void {
  const { registry } = workerLifecycle(ctx);

  router.get(`${WORKER}/logs`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWorkerLogs',
      summary: 'Container logs',
      description:
        "The container's output (its main process), stdout and stderr interleaved, as text/plain; " +
        '`tail` keeps the last lines. Follow it live over `GET /api/workers/{id}/terminal?mode=logs`.',
      params: WorkerParams,
      querystring: LogsQuery,
      response: { 200: Type.String({ description: 'text/plain' }) },
    },
    handler: async (request, reply) => {
      const target = await workerTarget(ctx, registry, request, request.params, false);
      const { text } = await agentCall(() =>
        target.peer.request('container.logs', {
          containerId: target.containerId,
          ...(request.query.tail === undefined ? {} : { tail: request.query.tail }),
        }),
      );
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  });

  router.get(`${WORKER}/stats`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWorkerStats',
      summary: 'CPU and memory',
      description: 'CPU use over a short sample (100 is one full core), memory and process count.',
      params: WorkerParams,
      response: { 200: ContainerStats },
    },
    handler: async (request) => {
      const target = await workerTarget(ctx, registry, request, request.params, false);
      return agentCall(() =>
        target.peer.request('container.stats', { containerId: target.containerId }),
      );
    },
  });

  router.get(`${WORKER}/git-status`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'getWorkerGitStatus',
      summary: 'Git status',
      description:
        'For each repository of the worker (or the one at `path`): branch, commit, upstream, ahead and ' +
        'behind counts, and changed files as porcelain v2 codes.',
      params: WorkerParams,
      querystring: GitStatusQuery,
      response: { 200: Type.Object({ repositories: Type.Array(GitStatus) }) },
    },
    handler: async (request) => {
      const target = await workerTarget(ctx, registry, request, request.params, false);
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

  router.get(`${WORKER}/ports`, {
    config: { access: 'authenticated' },
    schema: {
      tags,
      operationId: 'listWorkerPorts',
      summary: 'Listening ports',
      description:
        'The TCP ports processes in the container listen on now, and the forwarded ports with their URLs.',
      params: WorkerParams,
      response: { 200: PortsResponse },
    },
    handler: async (request) => {
      const target = await workerTarget(ctx, registry, request, request.params, false);
      const { ports } = await agentCall(() =>
        target.peer.request('container.ports', { containerId: target.containerId }),
      );
      const worker = await presentWorker(ctx.db, target.row);
      return { listening: ports, forwarded: worker.ports };
    },
  });
}
