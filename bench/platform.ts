import { type ChildProcess, spawn } from 'node:child_process';
import { describeEndpoint, parseDockerHost, SPARROW_PODMAN_SOCKET } from '../src/agent/engine.js';
import { call, registerUser } from './api.js';
import { type BenchServer, startServer } from './server.js';

/**
 * A built server (dist/) with a real agent process on this machine's engine
 * (DOCKER_HOST, else the socket scripts/podman/setup.sh serves), an owner,
 * an organization, an online node and a project.
 */
export interface PlatformBench {
  server: BenchServer;
  token: string;
  orgId: string;
  nodeId: string;
  projectId: string;
  image: string;
  stop(): Promise<void>;
}

/**
 * `agentArgs`: more arguments of `sparrow agent` (such as `--no-tmux`);
 * `serverEnv`: more settings of the server.
 */
export async function startPlatformBench(
  agentArgs: string[] = [],
  serverEnv: Record<string, string> = {},
): Promise<PlatformBench> {
  const database = (process.env.BENCH_DATABASE ?? 'pglite') as 'pglite' | 'postgres';
  const image = process.env.BENCH_IMAGE ?? 'localhost/sparrow/workspace:v2';
  const server = await startServer(database, { WORKER_IMAGE: image, ...serverEnv });
  const token = await registerUser(server.url);
  const org = await call(server.url, 'POST', '/api/orgs', { name: 'Bench' }, token);
  const node = await call(
    server.url,
    'POST',
    `/api/orgs/${org.id}/nodes`,
    { name: 'bench' },
    token,
  );
  const dockerHost = describeEndpoint(
    parseDockerHost(process.env.DOCKER_HOST ?? `unix://${SPARROW_PODMAN_SOCKET}`),
  );
  const agent: ChildProcess = spawn(
    process.execPath,
    ['dist/main.js', 'agent', '--server', server.url, ...agentArgs],
    {
      env: {
        PATH: process.env.PATH ?? '',
        LOG_LEVEL: 'warn',
        AGENT_TOKEN: node.token,
        DOCKER_HOST: dockerHost,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await call(
      server.url,
      'GET',
      `/api/orgs/${org.id}/nodes/${node.node.id}`,
      undefined,
      token,
    );
    if (status.status === 'online') break;
    if (Date.now() > deadline) throw new Error('the agent did not connect');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const project = await call(
    server.url,
    'POST',
    `/api/orgs/${org.id}/projects`,
    { name: 'bench' },
    token,
  );
  return {
    server,
    token,
    orgId: org.id,
    nodeId: node.node.id,
    projectId: project.id,
    image,
    async stop() {
      // Workers a benchmark left behind go with it, containers included.
      const workers = `/api/orgs/${org.id}/projects/${project.id}/workers`;
      const left = await call<Array<{ id: string }>>(server.url, 'GET', workers, undefined, token);
      for (const worker of left) {
        await call(server.url, 'DELETE', `${workers}/${worker.id}?wait=true`, undefined, token);
      }
      const exited = new Promise((resolve) => agent.once('exit', resolve));
      agent.kill('SIGTERM');
      await exited;
      await server.stop();
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? 0) * 100) / 100;
}
