import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useNodeBed } from '../../../test/fixtures/app.js';
import {
  connectFakeAgent,
  type FakeAgent,
  type FakeRuntime,
  fakeContainers,
} from '../../../test/helpers/fake-agent.js';
import {
  createProject,
  onlineFakeNode,
  readyWorker,
  waitForNodeStatus,
} from '../../../test/helpers/nodes.js';
import { anotherProcess, listenOnLoopback } from '../../../test/helpers/processes.js';
import { markDisconnected } from '../nodes/repository.js';

/**
 * Two applications on one database stand for two server processes: the
 * agent connects to one, requests land on the other and go through the relay.
 */
describe('the relay between server processes', () => {
  const bed = useNodeBed({ JOB_POLL_MS: '100' });
  let holder: FastifyInstance;
  let holderUrl: string;
  let projectId: string;
  let nodeId: string;
  let agent: FakeAgent;
  let workerPath: string;

  beforeAll(async () => {
    holder = (await anotherProcess(bed.t, { notifications: false })).app;
    holderUrl = await listenOnLoopback(holder);
    projectId = await createProject(bed, 'relay');
    ({ id: nodeId, agent } = await onlineFakeNode(bed, 'held', holderUrl, fakeContainers()));
    const workerId = await readyWorker(bed, projectId, nodeId);
    workerPath = `/orgs/${bed.org.id}/projects/${projectId}/workers/${workerId}`;
  });
  afterAll(async () => {
    await agent.close();
    await holder.close();
  });

  it('records which process holds the agent, and where that process is reached', async () => {
    const row = await bed.t.db
      .selectFrom('nodes')
      .innerJoin('server_processes', 'server_processes.id', 'nodes.agent_process_id')
      .select('server_processes.internal_url')
      .where('nodes.id', '=', nodeId)
      .executeTakeFirst();
    expect(row?.internal_url).toBe(holderUrl);
  });

  it('leaves a node online when a process that no longer holds its agent sees an old link close', async () => {
    // As when the agent reconnected to the holder before this process noticed its old link drop.
    await markDisconnected(bed.t.db, nodeId, bed.t.ctx.agents.processId);
    const node = await bed.t.api.get(`/orgs/${bed.org.id}/nodes/${nodeId}`, {
      token: bed.owner.token,
    });
    expect(node.body).toMatchObject({ status: 'online', connected: true });
  });

  it('serves exec and stats on the process that does not hold the agent', async () => {
    const before = agent.received.get('exec.run') ?? 0;
    for (let round = 0; round < 20; round++) {
      const exec = await bed.t.api.post(
        `${workerPath}/exec` as `/orgs/${string}/projects/${string}/workers/${string}/exec`,
        { command: ['echo', `round-${round}`] },
        { token: bed.owner.token },
      );
      expect(exec.status).toBe(200);
      expect(exec.body).toMatchObject({ exitCode: 0, stdout: `echo round-${round}\n` });
    }
    expect(agent.received.get('exec.run')).toBe(before + 20);
    const stats = await bed.t.api.get(
      `${workerPath}/stats` as `/orgs/${string}/projects/${string}/workers/${string}/stats`,
      { token: bed.owner.token },
    );
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ cpuPercent: 1.5, pids: 3 });
  });

  it('answers 503 node_offline once the agent is gone from every process', async () => {
    const other = await bed.t.api.post(
      `/orgs/${bed.org.id}/nodes`,
      { name: 'brief' },
      { token: bed.owner.token },
    );
    const brief = connectFakeAgent(holderUrl, other.body.token, fakeContainers());
    await brief.welcomed;
    await waitForNodeStatus(bed, other.body.node.id, 'online');
    const worker = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${projectId}/workers?wait=true`,
      { nodeId: other.body.node.id },
      { token: bed.owner.token },
    );
    const path =
      `/orgs/${bed.org.id}/projects/${projectId}/workers/${worker.body.id}/exec` as const;
    expect(
      (await bed.t.api.post(path, { command: ['true'] }, { token: bed.owner.token })).status,
    ).toBe(200);
    await brief.close();
    await waitForNodeStatus(bed, other.body.node.id, 'offline');
    const refused = await bed.t.api.post(path, { command: ['true'] }, { token: bed.owner.token });
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: { code: 'node_offline' } });
  });

  it('holds back-pressure across the hop: an unread relay pauses the stream at the agent, and every byte arrives in order', async () => {
    const CHUNK = 64 * 1024;
    const TOTAL = 32 * 1024 * 1024;
    let sent = 0;
    const paused = new Set<string>();
    const events: string[] = [];
    const base = fakeContainers();
    let streaming: FakeAgent | undefined;
    const produce = (id: string) => {
      const socket = streaming?.socket;
      if (socket === undefined) return;
      while (sent < TOTAL) {
        // The agent's own link is flow-controlled too: wait when it is backed up.
        if (paused.has(id) || socket.bufferedAmount > 1024 * 1024) {
          setTimeout(() => produce(id), 5);
          return;
        }
        const chunk = Buffer.alloc(CHUNK, sent / CHUNK);
        chunk.writeUInt32BE(sent / CHUNK, 0);
        socket.send(JSON.stringify({ type: 'stream.data', id, data: chunk.toString('base64') }));
        sent += CHUNK;
      }
      socket.send(JSON.stringify({ type: 'stream.end', id, exitCode: null }));
    };
    const runtime: FakeRuntime = (method, params, id) => {
      if (method !== 'logs.follow') return base(method, params, id);
      setImmediate(() => produce(id));
      return { result: { containerId: 'streamer' } };
    };
    const node = await bed.t.api.post(
      `/orgs/${bed.org.id}/nodes`,
      { name: 'streaming' },
      { token: bed.owner.token },
    );
    streaming = connectFakeAgent(holderUrl, node.body.token, runtime);
    streaming.controls.on('stream.pause', (id: string) => {
      paused.add(id);
      events.push('pause');
    });
    streaming.controls.on('stream.resume', (id: string) => {
      paused.delete(id);
      events.push('resume');
    });
    await streaming.welcomed;
    await waitForNodeStatus(bed, node.body.node.id, 'online');

    const secret = await bed.t.db
      .selectFrom('cluster_secrets')
      .select('value')
      .where('name', '=', 'relay')
      .executeTakeFirstOrThrow();
    const relay = new WebSocket(
      `${holderUrl.replace('http', 'ws')}/api/tunnel/relay?nodeId=${node.body.node.id}`,
      { headers: { authorization: `Relay ${secret.value}` }, maxPayload: 64 * 1024 * 1024 },
    );
    const received: Buffer[] = [];
    let answered = false;
    const ended = new Promise<void>((resolve) => {
      relay.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; data?: string };
        if (message.type === 'hello') {
          relay.send(
            JSON.stringify({
              type: 'request',
              id: 's1',
              method: 'logs.follow',
              params: { containerId: 'streamer' },
            }),
          );
        }
        if (message.type === 'response') answered = true;
        if (message.type === 'stream.data')
          received.push(Buffer.from(message.data ?? '', 'base64'));
        if (message.type === 'stream.end') resolve();
      });
    });
    await waitFor(() => answered);
    // This process stops reading the relay: the holder's socket backs up.
    relay.pause();
    await waitFor(() => events.includes('pause'));
    const atPause = sent;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The agent stopped producing: what the hop holds stays bounded.
    expect(sent).toBe(atPause);
    expect(sent).toBeLessThan(TOTAL);
    relay.resume();
    await ended;
    expect(events).toContain('resume');
    const all = Buffer.concat(received);
    expect(all.length).toBe(TOTAL);
    for (let index = 0; index < TOTAL / CHUNK; index++) {
      if (all.readUInt32BE(index * CHUNK) !== index) throw new Error(`chunk ${index} out of order`);
    }
    relay.close();
    await streaming.close();
  });

  it('refuses a relay without the infrastructure credential, or with a user token', async () => {
    const url = `${holderUrl.replace('http', 'ws')}/api/tunnel/relay?nodeId=${nodeId}`;
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const socket = new WebSocket(url, { headers });
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('open', () => {
          socket.close();
          resolve(101);
        });
        socket.on('error', () => {});
      });
    expect(await status({})).toBe(401);
    expect(await status({ authorization: `Bearer ${bed.owner.token}` })).toBe(401);
    expect(await status({ authorization: 'Relay not-the-secret' })).toBe(401);
    const secret = await bed.t.db
      .selectFrom('cluster_secrets')
      .select('value')
      .where('name', '=', 'relay')
      .executeTakeFirstOrThrow();
    expect(await status({ authorization: `Relay ${secret.value}` })).toBe(101);
  });

  async function waitFor(check: () => boolean, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
});
