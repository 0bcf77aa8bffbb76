import type { ChildProcess } from 'node:child_process';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnAgent } from '../../../test/helpers/agent-process.js';
import { present } from '../../../test/helpers/assert.js';
import {
  connectTestEngine,
  describeEngine,
  eventually,
  testEngineEndpoint,
} from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  registerNode,
  removeOrgContainers,
  waitForNodeStatus,
  waitForWorker,
} from '../../../test/helpers/nodes.js';
import { createOrg, createPlatformTestApp } from '../../../test/helpers/platform.js';
import { freePort } from '../../../test/helpers/ports.js';
import { describeEndpoint } from '../../agent/engine.js';
import { startBackground } from '../../app.js';
import { modules } from '../../modules.js';

const dockerHost = describeEndpoint(testEngineEndpoint());

/** `sparrow agent` as its own process, the way a node runs it. */
function agentProcess(
  server: string,
  token: string,
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawnAgent(server, token);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { child, exited };
}

describeEngine('a node run by a real agent process', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed();
  });
  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  it('runs a worker, and after a restart reconciles a container that vanished meanwhile', async () => {
    const as = { token: bed.owner.token };
    const node = await registerNode(bed, 'process-node');
    const first = agentProcess(bed.baseUrl, node.token);
    running.push(first.child);
    await waitForNodeStatus(bed, node.id, 'online');

    const project = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, { name: 'proc' }, as);
    const workers = `/orgs/${bed.org.id}/projects/${project.body.id}/workers` as const;
    const spawned = await bed.t.api.post(
      workers,
      { nodeId: node.id },
      { ...as, query: { wait: 'true' } },
    );
    expect(spawned.body).toMatchObject({ state: 'ready', nodeId: node.id });
    const path = `${workers}/${spawned.body.id}` as const;
    const echoed = await bed.t.api.post(`${path}/exec`, { command: 'echo from-process' }, as);
    expect(echoed.body).toMatchObject({ stdout: 'from-process\n' });

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await waitForNodeStatus(bed, node.id, 'offline');
    const offline = await bed.t.api.post(`${path}/exec`, { command: 'true' }, as);
    expect(offline.status).toBe(503);
    expect(offline.body.error.code).toBe('node_offline');

    // Removed behind the server's back while no agent was connected.
    await docker
      .getContainer(present(spawned.body.containerId, 'containerId'))
      .remove({ force: true });
    const second = agentProcess(bed.baseUrl, node.token);
    running.push(second.child);
    await waitForNodeStatus(bed, node.id, 'online');
    const lost = await waitForWorker(bed, path, 'lost');
    expect(lost.stateReason).toMatch(/no longer exists/);
    expect((await bed.t.api.delete(path, { ...as, query: { wait: 'true' } })).status).toBe(204);
    second.child.kill('SIGTERM');
    await second.exited;
  });
});

describeEngine('the built-in local agent (LOCAL_AGENT)', () => {
  it('serves the shared node `local`, which every organization places workers on', async () => {
    const docker = await connectTestEngine();
    const port = await freePort();
    const t = await createPlatformTestApp({
      PORT: String(port),
      LOCAL_AGENT: 'true',
      LOCAL_AGENT_DOCKER_HOST: dockerHost,
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    const stop = await startBackground(t.ctx, modules);
    const owner = await createUser(t);
    const org = await createOrg(t, owner);
    try {
      const as = { token: owner.token };
      const local = await eventually(async () => {
        const list = await t.api.get(`/orgs/${org.id}/nodes`, as);
        const node = list.body.find((n: { name: string }) => n.name === 'local');
        return node?.status === 'online' ? node : undefined;
      });
      expect(local).toMatchObject({ shared: true, orgId: null });
      const refused = await t.api.delete(`/orgs/${org.id}/nodes/${local.id}`, as);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('node_shared');

      const project = await t.api.post(`/orgs/${org.id}/projects`, { name: 'one-command' }, as);
      const workers = `/orgs/${org.id}/projects/${project.body.id}/workers` as const;
      const spawned = await t.api.post(workers, {}, { ...as, query: { wait: 'true' } });
      expect(spawned.body).toMatchObject({ state: 'ready', nodeId: local.id });
      const path = `${workers}/${spawned.body.id}` as const;
      expect((await t.api.delete(path, { ...as, query: { wait: 'true' } })).status).toBe(204);
    } finally {
      await stop();
      await t.close();
      await removeOrgContainers(docker, org);
    }
  });
});
