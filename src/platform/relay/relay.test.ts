import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  connectFakeAgent,
  type FakeAgent,
  fakeContainers,
} from '../../../test/helpers/fake-agent.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  waitForNodeStatus,
} from '../../../test/helpers/nodes.js';
import { buildApp } from '../../app.js';
import { modules } from '../../modules.js';

/**
 * Two applications on one database stand for two server processes: the
 * agent connects to one, requests land on the other and go through the relay.
 */
describe('the relay between server processes', () => {
  let bed: NodeTestBed;
  let holder: FastifyInstance;
  let holderUrl: string;
  let projectId: string;
  let nodeId: string;
  let agent: FakeAgent;
  let workerPath: string;

  beforeAll(async () => {
    bed = await createNodeTestBed({ JOB_POLL_MS: '100' });
    holder = (
      await buildApp({ config: bed.t.ctx.config, db: bed.t.db, dbKind: bed.t.dbKind, modules })
    ).app;
    await holder.listen({ port: 0, host: '127.0.0.1' });
    holderUrl = `http://127.0.0.1:${(holder.server.address() as AddressInfo).port}`;
    const project = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      { name: 'relay' },
      { token: bed.owner.token },
    );
    projectId = project.body.id;
    const node = await bed.t.api.post(
      `/orgs/${bed.org.id}/nodes`,
      { name: 'held' },
      { token: bed.owner.token },
    );
    nodeId = node.body.node.id;
    agent = connectFakeAgent(holderUrl, node.body.token, fakeContainers());
    await agent.welcomed;
    await waitForNodeStatus(bed, nodeId, 'online');
    const spawned = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${projectId}/workers?wait=true`,
      { nodeId },
      { token: bed.owner.token },
    );
    expect(spawned.body.state).toBe('ready');
    workerPath = `/orgs/${bed.org.id}/projects/${projectId}/workers/${spawned.body.id}`;
  });
  afterAll(async () => {
    await agent.close();
    await holder.close();
    await bed.close();
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
});
