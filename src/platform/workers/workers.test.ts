import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { at, present } from '../../../test/helpers/assert.js';
import { connectTestEngine, describeEngine, eventually } from '../../../test/helpers/engine.js';
import { type GitServer, startGitServer } from '../../../test/helpers/git-server.js';
import { withStatus } from '../../../test/helpers/http.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
  waitForWorker,
} from '../../../test/helpers/nodes.js';
import { addMember, createKey, secretValue } from '../../../test/helpers/platform.js';

describeEngine('workers on a real node', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let repo: GitServer;
  let node: { id: string };
  let projectId: string;
  let worker: Awaited<ReturnType<typeof waitForWorker>>;
  const projectSecret = secretValue('project');
  const userSecret = secretValue('user');

  const workersPath = () => `/orgs/${bed.org.id}/projects/${projectId}/workers` as const;
  const workerPath = () => `${workersPath()}/${worker.id}` as const;
  const as = () => ({ token: bed.owner.token });
  const exec = (body: unknown) => bed.t.api.post(`${workerPath()}/exec`, body, as());

  beforeAll(async () => {
    docker = await connectTestEngine();
    repo = await startGitServer();
    bed = await createNodeTestBed();
    node = await onlineNode(bed, docker);
    const project = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      {
        name: 'app',
        repositories: [{ url: repo.url }],
        forwardPorts: [8080],
        secrets: [
          { name: 'SHARED_TOKEN', value: projectSecret },
          { name: 'WHO', value: 'project' },
        ],
      },
      as(),
    );
    expect(project.status).toBe(201);
    projectId = project.body.id;
    for (const secret of [
      { name: 'PERSONAL_TOKEN', value: userSecret },
      { name: 'WHO', value: 'user' },
    ]) {
      expect((await bed.t.api.post('/users/me/secrets', secret, as())).status).toBe(201);
    }
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
    await repo.close();
  });

  it('spawns a worker: creating, then ready with the repository on the requested branch', async () => {
    const spawned = await bed.t.api.post(workersPath(), { branch: 'feature' }, as());
    expect(spawned.status).toBe(201);
    expect(spawned.body).toMatchObject({ state: 'creating', nodeId: node.id, branch: 'feature' });
    worker = await waitForWorker(bed, `${workersPath()}/${spawned.body.id}`, 'ready');
    expect(worker.containerId).toEqual(expect.any(String));
    expect(worker.repositories).toEqual([
      {
        url: repo.url,
        path: '/workspaces/project',
        branch: 'feature',
        cloned: true,
        message: expect.any(String),
      },
    ]);
    expect(worker.ports).toEqual([
      {
        port: 8080,
        protocol: 'tcp',
        hostPort: expect.any(Number),
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      },
    ]);
    expect(worker.urls).toEqual([at(worker.ports, 0).url]);
    const inspected = await docker.getContainer(present(worker.containerId)).inspect();
    expect(inspected.State.Running).toBe(true);
  });

  it('gives the container the project and user secrets, the personal one winning', async () => {
    const result = await exec({
      command: 'echo "$SHARED_TOKEN $PERSONAL_TOKEN $WHO $SPARROW_WORKER_ID"',
    });
    expect(withStatus(result, 200).body.stdout.trim()).toBe(
      `${projectSecret} ${userSecret} user ${worker.id}`,
    );
  });

  it('runs a command and waits for its exit code and output', async () => {
    const result = await exec({
      command: ['sh', '-c', 'cat; echo err >&2; exit 3'],
      stdin: 'hello',
    });
    expect(result.body).toMatchObject({
      exitCode: 3,
      stdout: 'hello',
      stderr: 'err\n',
      timedOut: false,
    });
    const timed = withStatus(await exec({ command: 'sleep 5', timeoutMs: 300 }), 200);
    expect(timed.body.timedOut).toBe(true);
  });

  it('runs a command in the background and follows, lists and cancels it', async () => {
    const started = withStatus(await exec({ command: 'sleep 60', background: true }), 202);
    expect(started.body.state).toBe('running');
    const quick = withStatus(await exec({ command: 'echo finished', background: true }), 202);
    const done = await eventually(async () => {
      const got = await bed.t.api.get(`${workerPath()}/commands/${quick.body.id}`, as());
      return got.body.state === 'exited' ? got.body : undefined;
    });
    expect(done).toMatchObject({ exitCode: 0, stdout: 'finished\n' });
    const list = await bed.t.api.get(`${workerPath()}/commands`, as());
    expect(list.body.map((c) => c.id)).toEqual(
      expect.arrayContaining([started.body.id, quick.body.id]),
    );
    const cancelled = await bed.t.api.post(
      `${workerPath()}/commands/${started.body.id}/cancel`,
      undefined,
      as(),
    );
    expect(cancelled.status).toBe(200);
    await eventually(async () => {
      const got = await bed.t.api.get(`${workerPath()}/commands/${started.body.id}`, as());
      return got.body.state === 'cancelled' ? true : undefined;
    });
    const unknown = await bed.t.api.get(`${workerPath()}/commands/${crypto.randomUUID()}`, as());
    expect(unknown.status).toBe(404);
  });

  it('answers logs as text/plain with the last lines', async () => {
    await exec({ command: 'for i in 1 2 3 4; do echo line-$i > /proc/1/fd/1; done' });
    const logs = await bed.t.api.get(`${workerPath()}/logs`, { ...as(), query: { tail: '2' } });
    expect(logs.status).toBe(200);
    expect(String(logs.headers['content-type'])).toMatch(/^text\/plain/);
    expect(logs.text).toBe('line-3\nline-4\n');
    // A last line without a newline is a line (the engine's own tail joins it to the one before).
    await exec({ command: 'printf "line-5\\nline-6" > /proc/1/fd/1' });
    const unfinished = await bed.t.api.get(`${workerPath()}/logs`, {
      ...as(),
      query: { tail: '2' },
    });
    expect(unfinished.text).toBe('line-5\nline-6');
  });

  it('reports stats, git status and listening ports', async () => {
    const stats = await bed.t.api.get(`${workerPath()}/stats`, as());
    expect(stats.status).toBe(200);
    expect(stats.body.memoryBytes).toBeGreaterThan(0);
    expect(stats.body.cpuPercent).toBeGreaterThanOrEqual(0);

    await exec({ command: 'echo change >> /workspaces/project/README.md' });
    const status = await bed.t.api.get(`${workerPath()}/git-status`, as());
    expect(status.body.repositories).toEqual([
      expect.objectContaining({
        path: '/workspaces/project',
        branch: 'feature',
        ahead: 0,
        behind: 0,
        clean: false,
        files: [expect.objectContaining({ path: 'README.md', workTree: 'M' })],
      }),
    ]);

    await exec({
      command: 'git daemon --reuseaddr --base-path=/tmp --port=8080 /tmp',
      background: true,
    });
    const ports = await eventually(async () => {
      const got = await bed.t.api.get(`${workerPath()}/ports`, as());
      return got.body.listening.some((p) => p.port === 8080) ? got.body : undefined;
    });
    expect(ports.forwarded[0]).toMatchObject({
      port: 8080,
      hostPort: at(worker.ports, 0).hostPort,
    });
  });

  it('lets members see workers but not act on those of others; keys need their scope', async () => {
    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    expect((await bed.t.api.get(workerPath(), { token: member.token })).status).toBe(200);
    const refused = await bed.t.api.post(
      `${workerPath()}/exec`,
      { command: 'true' },
      { token: member.token },
    );
    expect(refused.status).toBe(403);
    const reader = await createKey(bed.t, bed.org, bed.owner, ['workers:read']);
    expect((await bed.t.api.get(`${workerPath()}/stats`, { token: reader.token })).status).toBe(
      200,
    );
    const noExec = await bed.t.api.post(
      `${workerPath()}/exec`,
      { command: 'true' },
      { token: reader.token },
    );
    expect(noExec.status).toBe(403);
    expect(noExec.body.error.code).toBe('missing_scope');
  });

  it('stops and starts a worker, keeping its files', async () => {
    const stopping = await bed.t.api.post(`${workerPath()}/stop`, undefined, as());
    expect(stopping.status).toBe(202);
    expect(stopping.body.state).toBe('stopping');
    await waitForWorker(bed, workerPath(), 'stopped');
    expect((await docker.getContainer(present(worker.containerId)).inspect()).State.Running).toBe(
      false,
    );
    const notRunning = await exec({ command: 'true' });
    expect(notRunning.status).toBe(409);
    expect(notRunning.body.error.code).toBe('worker_not_running');
    const again = await bed.t.api.post(`${workerPath()}/stop`, undefined, as());
    expect(again.body.error.code).toBe('worker_state_conflict');

    const started = await bed.t.api.post(`${workerPath()}/start`, undefined, {
      ...as(),
      query: { wait: 'true' },
    });
    expect(started.status).toBe(202);
    expect(started.body.state).toBe('ready');
    const kept = withStatus(await exec({ command: 'tail -1 /workspaces/project/README.md' }), 200);
    expect(kept.body.stdout).toBe('change\n');
  });

  it('marks a worker stopped when its container exits by itself, and lost when it vanishes', async () => {
    const spawned = await bed.t.api.post(workersPath(), {}, { ...as(), query: { wait: 'true' } });
    expect(spawned.body.state).toBe('ready');
    const path = `${workersPath()}/${spawned.body.id}` as const;
    const containerId = present(spawned.body.containerId, 'containerId');
    await docker.getContainer(containerId).stop({ t: 0 });
    const stopped = await waitForWorker(bed, path, 'stopped');
    expect(stopped.stateReason).toMatch(/stopped by itself/);
    await docker.getContainer(containerId).remove({ force: true });
    const lost = await waitForWorker(bed, path, 'lost');
    expect(lost.stateReason).toMatch(/no longer exists/);
    expect((await bed.t.api.delete(path, { ...as(), query: { wait: 'true' } })).status).toBe(204);
  });

  it('fails a worker whose repository cannot be cloned, with the reason', async () => {
    const broken = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      {
        name: 'broken',
        repositories: [{ url: `${repo.url.replace('project.git', 'missing.git')}` }],
      },
      as(),
    );
    const spawned = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects/${broken.body.id}/workers`,
      {},
      { ...as(), query: { wait: 'true' } },
    );
    expect(spawned.body.state).toBe('failed');
    expect(spawned.body.stateReason).toMatch(/checkout of \/workspaces\/missing failed/);
    const path = `/orgs/${bed.org.id}/projects/${broken.body.id}/workers/${spawned.body.id}`;
    expect((await bed.t.api.delete(path, { ...as(), query: { wait: 'true' } })).status).toBe(204);
  });

  it('places no worker on a draining node, keeps running ones, and refuses to delete a node in use', async () => {
    const drained = await bed.t.api.post(
      `/orgs/${bed.org.id}/nodes/${node.id}/drain`,
      undefined,
      as(),
    );
    expect(drained.body.status).toBe('draining');
    const refused = await bed.t.api.post(workersPath(), {}, as());
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('no_node_available');
    expect((await bed.t.api.get(workerPath(), as())).body.state).toBe('ready');
    const inUse = await bed.t.api.delete(`/orgs/${bed.org.id}/nodes/${node.id}`, as());
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe('node_has_workers');
    await bed.t.api.post(`/orgs/${bed.org.id}/nodes/${node.id}/drain`, { draining: false }, as());
  });

  it('lists the node inventory with each container matched to its worker', async () => {
    const inventory = await bed.t.api.get(`/orgs/${bed.org.id}/nodes/${node.id}/inventory`, as());
    expect(inventory.status).toBe(200);
    const entry = inventory.body.containers.find(
      (c: { id: string }) => c.id === worker.containerId,
    );
    expect(entry).toMatchObject({
      orphan: false,
      worker: { id: worker.id, name: worker.name, state: 'ready' },
      service: null,
    });
  });

  it('deletes a worker and its container', async () => {
    const deleting = await bed.t.api.delete(workerPath(), as());
    expect(deleting.status).toBe(202);
    expect(deleting.body.state).toBe('deleting');
    await eventually(async () =>
      (await bed.t.api.get(workerPath(), as())).status === 404 ? true : undefined,
    );
    await expect(docker.getContainer(present(worker.containerId)).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});
