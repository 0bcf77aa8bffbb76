import Type from 'typebox';
import { GitStatus, TerminalInfo } from '../../../agent/protocol/schemas.js';
import { GitStatusQuery, PortsResponse } from '../../workers/inspect-schemas.js';
import { workerParams } from '../org-resolution.js';
import { ShownGitStatus, ShownTerminal } from '../records.js';
import { Args, defineTool, Ids, Result, type Tool, WorkerRef } from '../tool.js';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

const Repositories = Type.Array(GitStatus);
const GitStatusAnswer = Type.Object({ repositories: Repositories });
const Terminals = Type.Array(TerminalInfo);

export const inspectTools: readonly Tool[] = [
  defineTool({
    name: 'get_worker_logs',
    title: "Read a worker's logs",
    description:
      "The last lines of the worker container's output (its main process: start-up, cloning). " +
      'For a command you ran, read its output from run_command or get_command instead. Needs workers:read.',
    input: Args({ ...WorkerRef, tail: Ids.tail }),
    output: Result({ logs: Type.String() }),
    operations: ['getWorkerLogs'],
    annotations: READ,
    text: (result) => result.logs,
    run: async (ctx, { tail, ...ref }) => {
      const params = await workerParams(ctx, 'get_worker_logs', ref);
      const body = await ctx.dispatcher.read('get_worker_logs', {
        operation: 'getWorkerLogs',
        params: { ...params },
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
    input: Args({ ...WorkerRef, ...GitStatusQuery.properties }),
    output: Result({ repositories: Type.Array(ShownGitStatus) }),
    operations: ['getWorkerGitStatus'],
    annotations: READ,
    run: async (ctx, { path: checkout, ...ref }) => {
      const params = await workerParams(ctx, 'get_worker_git_status', ref);
      const { repositories } = await ctx.dispatcher.readAs(
        'get_worker_git_status',
        { operation: 'getWorkerGitStatus', params: { ...params }, query: { path: checkout } },
        GitStatusAnswer,
      );
      return { repositories };
    },
  }),
  defineTool({
    name: 'list_worker_ports',
    title: "List a worker's ports",
    description:
      "TCP ports a process in the worker listens on right now, and the project's forwarded ports with their public URLs. Needs workers:read.",
    input: Args(WorkerRef),
    output: Result(PortsResponse.properties),
    operations: ['listWorkerPorts'],
    annotations: READ,
    run: async (ctx, ref) => {
      const params = await workerParams(ctx, 'list_worker_ports', ref);
      const { listening, forwarded } = await ctx.dispatcher.readAs(
        'list_worker_ports',
        { operation: 'listWorkerPorts', params: { ...params } },
        PortsResponse,
      );
      return { listening, forwarded };
    },
  }),
  defineTool({
    name: 'list_worker_terminals',
    title: "List a worker's terminals",
    description:
      'The persistent terminal sessions of a worker (they outlive their clients), with how many clients are attached. Needs workers:exec.',
    input: Args(WorkerRef),
    output: Result({ terminals: Type.Array(ShownTerminal) }),
    operations: ['listWorkerTerminals'],
    annotations: READ,
    run: async (ctx, ref) => {
      const params = await workerParams(ctx, 'list_worker_terminals', ref);
      const terminals = await ctx.dispatcher.readAs(
        'list_worker_terminals',
        { operation: 'listWorkerTerminals', params: { ...params } },
        Terminals,
      );
      return { terminals };
    },
  }),
];
