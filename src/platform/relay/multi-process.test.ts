import type { ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawnAgent } from '../../../test/helpers/agent-process.js';
import { connectTestEngine, eventually, removeLabelled } from '../../../test/helpers/engine.js';
import { TEST_SECRETS_KEY } from '../../../test/helpers/platform.js';
import {
  type RoundRobinProxy,
  startRoundRobinProxy,
} from '../../../test/helpers/round-robin-proxy.js';
import {
  type FreshDatabase,
  freshDatabase,
  type Server,
  serve,
  signedInAccount,
} from '../../../test/helpers/sparrow-process.js';
import { openSocket } from '../../../test/helpers/ws-client.js';
import { connectPostgres, type DatabaseHandle } from '../../db/connect.js';

/** The fields of the answers this test reads (a text answer is a string at run time). */
interface Body {
  id: string;
  state: string;
  stateReason: string | null;
  status: string;
  stdout: string;
  token: string;
  node: { id: string };
}

interface Answer {
  status: number;
  body: Body;
}

/**
 * Two `sparrow serve` processes on one PostgreSQL behind a round-robin
 * proxy, a real `sparrow agent` process connected through the proxy and the
 * real engine. Every request opens its own connection, so consecutive
 * requests land on alternate processes.
 */
describe.runIf(
  inject('testDatabase').kind === 'postgres' && process.env.SPARROW_SKIP_ENGINE_TESTS !== '1',
)('two server processes behind a proxy', () => {
  let database: FreshDatabase;
  let handle: DatabaseHandle;
  let docker: Docker;
  const servers: Server[] = [];
  let proxy: RoundRobinProxy;
  let agent: ChildProcess;
  let token: string;
  let org: { id: string };
  let projectId: string;
  let nodeId: string;

  /** One request on a connection of its own (no keep-alive), through the proxy. */
  function call(method: string, path: string, body?: unknown): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = httpRequest(
        `${proxy.url}/api${path}`,
        {
          method,
          agent: false,
          headers: {
            authorization: `Bearer ${token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString();
          });
          res.on('end', () => {
            const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
            resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(text) : text });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  const env = () => ({
    ...database.env,
    SECRETS_KEY: TEST_SECRETS_KEY,
    JOB_LEASE_MS: '3000',
    JOB_POLL_MS: '200',
  });

  beforeAll(async () => {
    docker = await connectTestEngine();
    database = await freshDatabase();
    // One after the other: the first migrates the new database.
    servers.push(await serve(env()));
    servers.push(await serve(env()));
    proxy = await startRoundRobinProxy(servers.map((server) => new URL(server.url).host));
    handle = await connectPostgres({ url: database.env.DATABASE_URL ?? '', poolSize: 2 });
    token = await signedInAccount(handle.db, proxy.url, 'Fleet');
    expect(token).not.toBe('');
    org = (await call('POST', '/orgs', { name: 'Fleet' })).body;
    projectId = (await call('POST', `/orgs/${org.id}/projects`, { name: 'fleet' })).body.id;
    const node = await call('POST', `/orgs/${org.id}/nodes`, { name: 'behind-proxy' });
    nodeId = node.body.node.id;
    agent = spawnAgent(proxy.url, node.body.token);
    await waitOnline();
  }, 180_000);

  afterAll(async () => {
    agent?.kill('SIGKILL');
    for (const server of servers) if (server.child.exitCode === null) await server.stop();
    await proxy?.close();
    if (org !== undefined) await removeLabelled(docker, { 'sparrow.org': org.id });
    await handle?.close();
    await database?.close();
  });

  const workers = () => `/orgs/${org.id}/projects/${projectId}/workers`;

  async function waitOnline() {
    await eventually(
      async () =>
        (await call('GET', `/orgs/${org.id}/nodes/${nodeId}`)).body.status === 'online'
          ? true
          : undefined,
      60_000,
      'node online',
    );
  }

  /** The worker once it is out of its transient states; fails if it stays in one. */
  async function settled(workerId: string) {
    return eventually(
      async () => {
        const worker = (await call('GET', `${workers()}/${workerId}`)).body;
        return ['ready', 'failed', 'stopped'].includes(worker.state) ? worker : undefined;
      },
      90_000,
      'worker settled',
    );
  }

  it('spawns, runs commands, shows logs, attaches and reattaches terminals, follows logs and deletes whichever process each request reaches', async () => {
    const spawned = await call('POST', `${workers()}?wait=true`, { nodeId });
    expect(spawned.status).toBe(201);
    expect(spawned.body.state).toBe('ready');
    const path = `${workers()}/${spawned.body.id}`;
    const before = new Map(proxy.counts);
    for (let round = 0; round < 6; round++) {
      const exec = await call('POST', `${path}/exec`, { command: `echo round-${round}` });
      expect(exec.status).toBe(200);
      expect(exec.body.stdout).toBe(`round-${round}\n`);
    }
    // Both processes answered some of them.
    for (const server of servers) {
      const host = new URL(server.url).host;
      expect((proxy.counts.get(host) ?? 0) - (before.get(host) ?? 0)).toBeGreaterThan(0);
    }
    await call('POST', `${path}/exec`, { command: 'echo to-the-log > /proc/1/fd/1' });
    for (let round = 0; round < 2; round++) {
      const logs = await call('GET', `${path}/logs?tail=5`);
      expect(logs.status).toBe(200);
      expect(String(logs.body)).toContain('to-the-log');
    }

    const ws = (query: string) =>
      `${proxy.url.replace('http', 'ws')}/api/workers/${spawned.body.id}/terminal?${query}`;
    expect((await call('POST', `${path}/terminals`, { name: 'dev' })).status).toBe(201);
    const first = await openSocket(ws('mode=terminal&session=dev'), token);
    await first.frame((f) => f.type === 'ready');
    first.input('echo $((6 * 7))-answer\r');
    await first.waitForOutput('42-answer');
    first.close();
    await first.closed;
    const again = await openSocket(ws('mode=terminal&session=dev'), token);
    await again.frame((f) => f.type === 'ready');
    // The restored screen holds what was printed before the detach.
    await again.waitForOutput('42-answer');
    again.input('echo still-$((1 + 1))\r');
    await again.waitForOutput('still-2');
    again.close();

    const follow = await openSocket(ws('mode=logs&tail=0'), token);
    await follow.frame((f) => f.type === 'ready' && f.mode === 'logs');
    await call('POST', `${path}/exec`, { command: 'echo followed-line > /proc/1/fd/1' });
    await follow.waitForOutput('followed-line');
    follow.close();

    const deleted = await call('DELETE', `${path}?wait=true`);
    expect(deleted.status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
  });

  it('finishes a spawn whose process was killed (kill -9) on the other process, nothing left transient', async () => {
    const holder = await handle.db
      .selectFrom('nodes')
      .innerJoin('server_processes', 'server_processes.id', 'nodes.agent_process_id')
      .select('server_processes.internal_url')
      .where('nodes.id', '=', nodeId)
      .executeTakeFirstOrThrow();
    const victim = servers.find((server) => server.url === holder.internal_url);
    expect(victim).toBeDefined();
    const spawned = await call('POST', workers(), { nodeId });
    expect(spawned.status).toBe(201);
    // Mid-spawn: the holder has claimed the job and is creating the container.
    await eventually(async () => {
      const job = await handle.db
        .selectFrom('jobs')
        .select('state')
        .where('target_id', '=', spawned.body.id)
        .executeTakeFirst();
      return job?.state === 'running' ? true : undefined;
    }, 20_000);
    victim?.child.kill('SIGKILL');
    const worker = await settled(spawned.body.id);
    expect(['ready', 'failed']).toContain(worker.state);
    if (worker.state === 'failed') expect(worker.stateReason).toEqual(expect.any(String));
    // The job ends in its own statement after the worker's state is written:
    // wait for it to end, then it must have ended as succeeded or failed.
    const job = await eventually(async () => {
      const row = await handle.db
        .selectFrom('jobs')
        .selectAll()
        .where('target_id', '=', spawned.body.id)
        .executeTakeFirstOrThrow();
      return row.state === 'running' || row.state === 'queued' ? undefined : row;
    }, 30_000);
    expect(['succeeded', 'failed']).toContain(job.state);
    // The survivor holds the agent now and serves the worker.
    if (worker.state === 'ready') {
      const exec = await call('POST', `${workers()}/${spawned.body.id}/exec`, {
        command: 'echo alive',
      });
      expect(exec.body.stdout).toBe('alive\n');
    }
    const transient = await handle.db
      .selectFrom('workers')
      .select('state')
      .where('state', 'in', ['creating', 'starting', 'stopping', 'deleting'])
      .execute();
    expect(transient).toEqual([]);
  });
});
