import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
} from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  registerNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import { createKey } from '../../../test/helpers/platform.js';
import { openSocket, refusedUpgrade } from '../../../test/helpers/ws-client.js';
import { newId } from '../../lib/ids.js';
import { shortReplicaId } from './replica-lines.js';

describeEngine('service logs, follow and shell', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let nodeId: string;
  let servicesUrl: `/orgs/${string}/deployments/${string}/services`;
  let web: string;
  let idle: string;
  let runId: string;
  const replicaIds: string[] = [];
  const suffix = randomBytes(4).toString('hex');
  const as = () => ({ token: bed.owner.token });
  const ws = (path: string) => `${bed.baseUrl.replace(/^http/, 'ws')}/api${path}`;

  async function addService(name: string): Promise<string> {
    const response = await bed.t.api.post(
      servicesUrl,
      { name, source: { type: 'image', image: BUSYBOX_IMAGE } },
      as(),
    );
    expect(response.status).toBe(201);
    return response.body.id;
  }

  /** A container ticking on the node, and its replica row, as a deploy would leave them. */
  async function addReplica(letter: string): Promise<string> {
    const peer = bed.t.ctx.agents.peer(nodeId);
    const name = `sparrow-svc-test-${suffix}-${letter}`;
    const script = `i=0; while true; do i=$((i+1)); echo "tick $i from ${letter}"; sleep 0.2; done`;
    await peer.request('container.create', {
      image: BUSYBOX_IMAGE,
      name,
      labels: { 'sparrow.org': bed.org.id },
      command: ['sh', '-c', script],
    });
    await peer.request('container.start', { containerId: name });
    const id = newId();
    await bed.t.db
      .insertInto('service_replicas')
      .values({
        id,
        service_id: web,
        run_id: runId,
        node_id: nodeId,
        container_name: name,
        port: null,
        state: 'active',
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed();
    nodeId = (await onlineNode(bed, docker)).id;
    const deployment = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments`,
      { name: 'Logs' },
      as(),
    );
    servicesUrl = `/orgs/${bed.org.id}/deployments/${deployment.body.id}/services`;
    web = await addService('web');
    idle = await addService('idle');
    runId = newId();
    await bed.t.db
      .insertInto('job_runs')
      .values({
        id: runId,
        org_id: bed.org.id,
        deployment_id: deployment.body.id,
        service_id: web,
        kind: 'deploy',
        job_name: null,
        parent_id: null,
        status: 'succeeded',
        reason: null,
        exit_code: null,
        image: BUSYBOX_IMAGE,
        scheduled_at: null,
        started_at: new Date(),
        ended_at: new Date(),
      })
      .execute();
    replicaIds.push(await addReplica('A'));
    replicaIds.push(await addReplica('B'));
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
  });

  const prefix = (index: number) => `[r${index + 1} ${shortReplicaId(replicaIds[index] ?? '')}] `;

  it('gives the logs of every replica, each line prefixed, tail lines of each', async () => {
    const url = `${servicesUrl}/${web}/logs` as const;
    await eventually(async () => {
      const response = await bed.t.api.get(url, as());
      return response.text.includes('tick 3 from A') && response.text.includes('tick 3 from B')
        ? true
        : undefined;
    });
    const tailed = await bed.t.api.get(url, { ...as(), query: { tail: '2' } });
    expect(tailed.status).toBe(200);
    expect(tailed.headers['content-type']).toMatch(/^text\/plain/);
    const lines = tailed.text.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(
      new RegExp(`^\\[r1 ${shortReplicaId(replicaIds[0] ?? '')}\\] tick \\d+ from A$`),
    );
    expect(lines[1]?.startsWith(prefix(0))).toBe(true);
    expect(lines[2]?.startsWith(prefix(1))).toBe(true);
    expect(lines[3]).toMatch(/ tick \d+ from B$/);
    const all = await bed.t.api.get(url, as());
    const allLines = all.text.split('\n').filter((line) => line !== '');
    expect(allLines.length).toBeGreaterThan(4);
    expect(allLines.every((line) => line.startsWith(prefix(0)) || line.startsWith(prefix(1)))).toBe(
      true,
    );

    const none = await bed.t.api.get(`${servicesUrl}/${idle}/logs`, as());
    expect(none.status).toBe(200);
    expect(none.text).toBe('');
  });

  it('needs deployments:read, hides other organizations, refuses a bad tail', async () => {
    const url = `${servicesUrl}/${web}/logs` as const;
    expect((await bed.t.api.get(url)).status).toBe(401);
    const reader = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    expect((await bed.t.api.get(url, { token: reader.token, query: { tail: '1' } })).status).toBe(
      200,
    );
    const other = await createKey(bed.t, bed.org, bed.owner, ['workers:read']);
    const refused = await bed.t.api.get(url, { token: other.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('missing_scope');
    const outsider = await createUser(bed.t);
    expect((await bed.t.api.get(url, { token: outsider.token })).status).toBe(404);
    const bad = await bed.t.api.get(url, { ...as(), query: { tail: '-1' } });
    expect(bad.status).toBe(400);
  });

  it('follows new lines of every replica, and of one that starts later', async () => {
    const client = await openSocket(ws(`/services/${web}/terminal?tail=0`), bed.owner.token);
    const ready = await client.frame((frame) => frame.type === 'ready');
    expect(ready).toMatchObject({
      mode: 'logs',
      replicas: [prefix(0).slice(1, -2), prefix(1).slice(1, -2)],
    });
    await client.waitForOutput(`${prefix(0)}tick`);
    await client.waitForOutput(`${prefix(1)}tick`);
    const output = client.frames.find((frame) => frame.type === 'output');
    expect(output).toMatchObject({ stream: 'stdout', replica: expect.stringMatching(/^r[12] /) });
    replicaIds.push(await addReplica('C'));
    await client.waitForOutput(`${prefix(2)}tick 1 from C\n`, 30_000);
    client.close();
    await client.closed;
  });

  it('opens a shell in the first active replica, takes input and resizes, and ends it on close', async () => {
    const client = await openSocket(ws(`/services/${web}/shell?cols=100&rows=30`), bed.owner.token);
    const ready = await client.frame((frame) => frame.type === 'ready');
    expect(ready).toMatchObject({ mode: 'shell', replica: prefix(0).slice(1, -2), cols: 100 });
    client.input('echo hi-$((6 * 7))\r');
    await client.waitForOutput('hi-42');
    client.send({ type: 'resize', cols: 91, rows: 23 });
    await eventually(async () => {
      client.input('stty size\r');
      await new Promise((resolve) => setTimeout(resolve, 300));
      return client.output().includes('23 91') ? true : undefined;
    });
    client.close();
    await client.closed;
    const peer = bed.t.ctx.agents.peer(nodeId);
    const containerId = `sparrow-svc-test-${suffix}-A`;
    await eventually(async () => {
      const { terminals } = await peer.request('terminal.list', { containerId });
      return terminals.length === 0 ? true : undefined;
    });
  });

  it('opens the replica named by ?replica=, and exits with the shell', async () => {
    const short = shortReplicaId(replicaIds[1] ?? '');
    const client = await openSocket(ws(`/services/${web}/shell?replica=${short}`), bed.owner.token);
    expect(await client.frame((frame) => frame.type === 'ready')).toMatchObject({
      replica: prefix(1).slice(1, -2),
    });
    client.input('exit 3\r');
    expect(await client.frame((frame) => frame.type === 'exit')).toMatchObject({ exitCode: 3 });
    expect((await client.closed).code).toBe(1000);
  });

  it('says so for a replica whose node is offline, in the text and in the follow socket', async () => {
    const ghost = await addService('ghost');
    const offline = await registerNode(bed, 'never-connected');
    await bed.t.db
      .insertInto('service_replicas')
      .values({
        id: newId(),
        service_id: ghost,
        run_id: runId,
        node_id: offline.id,
        container_name: `sparrow-svc-test-${suffix}-ghost`,
        port: null,
        state: 'active',
      })
      .execute();
    const text = await bed.t.api.get(`${servicesUrl}/${ghost}/logs`, as());
    expect(text.status).toBe(200);
    expect(text.text).toMatch(/^\[r1 [0-9a-f]{6}\] -- logs unavailable: .+\n$/);
    const client = await openSocket(ws(`/services/${ghost}/terminal`), bed.owner.token);
    await client.waitForOutput('-- logs unavailable: ');
    expect(client.frames.find((frame) => frame.type === 'output')).toMatchObject({
      stream: 'stderr',
    });
    client.close();
  });

  it('ends the follow socket when the service is removed', async () => {
    const doomed = await addService('doomed');
    const client = await openSocket(ws(`/services/${doomed}/terminal`), bed.owner.token);
    expect(await client.frame((frame) => frame.type === 'ready')).toMatchObject({ replicas: [] });
    expect((await bed.t.api.delete(`${servicesUrl}/${doomed}`, as())).status).toBe(204);
    expect(await client.closed).toEqual({ code: 1000, reason: 'end' });
    expect(client.frames.at(-1)).toMatchObject({ type: 'end' });
  });

  it('refuses handshakes before the upgrade', async () => {
    const shell = ws(`/services/${web}/shell`);
    const follow = ws(`/services/${web}/terminal`);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    expect((await refusedUpgrade(shell)).status).toBe(401);
    expect((await refusedUpgrade(follow)).status).toBe(401);
    const reader = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    const denied = await refusedUpgrade(shell, bearer(reader.token));
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('missing_scope');
    const follower = await openSocket(follow, reader.token);
    await follower.frame((frame) => frame.type === 'ready');
    follower.close();
    const writer = await createKey(bed.t, bed.org, bed.owner, ['deployments:write']);
    expect((await refusedUpgrade(follow, bearer(writer.token))).status).toBe(403);
    const outsider = await createUser(bed.t);
    expect((await refusedUpgrade(shell, bearer(outsider.token))).status).toBe(404);
    expect((await refusedUpgrade(follow, bearer(outsider.token))).status).toBe(404);
    const cookie = { cookie: `session=${bed.owner.token}`, origin: 'https://evil.example' };
    for (const url of [shell, follow]) {
      const foreign = await refusedUpgrade(url, cookie);
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('origin_not_allowed');
    }
    const unknown = await refusedUpgrade(ws(`/services/${newId()}/shell`), bearer(bed.owner.token));
    expect(unknown.status).toBe(404);
    const idleShell = await refusedUpgrade(ws(`/services/${idle}/shell`), bearer(bed.owner.token));
    expect(idleShell.status).toBe(409);
    expect(idleShell.body.error.code).toBe('service_not_running');
    const noReplica = await refusedUpgrade(`${shell}?replica=ffffff`, bearer(bed.owner.token));
    expect(noReplica.status).toBe(404);
    expect(noReplica.body.error.code).toBe('replica_not_found');
  });
});
