import { request as httpRequest } from 'node:http';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { at } from '../../../test/helpers/assert.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
} from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import { createNodeTestBed, type NodeTestBed, onlineNode } from '../../../test/helpers/nodes.js';
import {
  addMember,
  createKey,
  createOrg,
  expectNoSecretLeaks,
  secretValue,
} from '../../../test/helpers/platform.js';
import { endedRun } from '../../../test/helpers/runs.js';
import { openSocket } from '../../../test/helpers/ws-client.js';
import { readRunOutput } from '../job-runs/output.js';
import { activeReplicas, liveReplicas } from './replicas.js';

/** httpd serving one page made from the environment at start. */
function site(port: number, page: string): string {
  return `mkdir -p /www && echo "${page}" > /www/index.html && exec httpd -f -p ${port} -h /www`;
}

describeEngine('deploys on a real node', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let deploymentId: string;
  let web: string;
  let api: string;
  let firstWebRun: string;
  let nodeId: string;
  const secret = secretValue('deployment');
  const as = () => ({ token: bed.owner.token });
  const deployment = () => `/orgs/${bed.org.id}/deployments/${deploymentId}` as const;
  const service = (id: string) => `${deployment()}/services/${id}` as const;

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed({ SERVICE_DRAIN_MS: '3000', JOB_POLL_MS: '200' });
    nodeId = (await onlineNode(bed, docker)).id;
    const created = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments`,
      { name: 'shop', env: { GREETING: 'hello' }, secrets: [{ name: 'TOKEN', value: secret }] },
      as(),
    );
    expect(created.status).toBe(201);
    deploymentId = created.body.id;
    const add = async (body: Record<string, unknown>) => {
      const response = await bed.t.api.post(`${deployment()}/services`, body, as());
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    web = await add({
      name: 'web',
      source: { type: 'image', image: BUSYBOX_IMAGE },
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's length of the secret
      command: site(8080, 'web $GREETING $VERSION ${#TOKEN}'),
      port: 8080,
      env: { VERSION: 'v1' },
      healthCheck: { path: '/index.html', graceSeconds: 30 },
    });
    api = await add({
      name: 'api',
      source: { type: 'image', image: BUSYBOX_IMAGE },
      command: site(8081, 'api $GREETING'),
      port: 8081,
    });
  });
  afterAll(async () => {
    await bed.close();
    await removeLabelled(docker, { 'sparrow.org': bed.org.id });
  });

  /** What the service's serving replicas answer on their port (at the container's bridge address). */
  async function fetchServing(serviceId: string): Promise<string[]> {
    const replicas = await activeReplicas(bed.t.db, serviceId);
    return Promise.all(
      replicas.map(async (replica) => {
        const info = await docker.getContainer(replica.container_name).inspect();
        // Nothing is published on the node: the proxy is the only way in.
        const published = Object.values(info.HostConfig.PortBindings ?? {}).flat();
        expect(
          published.filter((binding) => (binding as { HostPort?: string } | null)?.HostPort),
        ).toEqual([]);
        const address = Object.values(info.NetworkSettings.Networks)[0]?.IPAddress;
        const response = await fetch(`http://${address}:${replica.port}/index.html`);
        return (await response.text()).trim();
      }),
    );
  }

  /** A GET through the service's URL (the server's proxy, then the node's agent). */
  function viaProxy(serviceId: string): Promise<{ status: number; body: string }> {
    const { port } = new URL(bed.baseUrl);
    return new Promise((resolve, reject) => {
      const request = httpRequest(
        `${bed.baseUrl}/index.html`,
        { agent: false, headers: { host: `svc-${serviceId}.svc.localhost:${port}` } },
        (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: body.trim() }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end();
    });
  }

  async function settled(serviceId: string, runId: string) {
    const run = await endedRun(bed.t.db, runId);
    const read = await bed.t.api.get(service(serviceId), as());
    const output = (await readRunOutput(bed.t.db, runId))
      .map((c) => Buffer.from(c.data).toString())
      .join('');
    return { run, service: read.body, output };
  }

  async function deploy(serviceId: string, body: Record<string, unknown> = {}) {
    const response = await bed.t.api.post(`${service(serviceId)}/deploy`, body, as());
    expect(response.status).toBe(202);
    expect(response.body.service.state).toBe('deploying');
    return settled(serviceId, response.body.runId ?? '');
  }

  it('deploys both services of the deployment: each answers on its port', async () => {
    const response = await bed.t.api.post(`${deployment()}/deploy`, {}, as());
    expect(response.status).toBe(202);
    expect(response.body.services).toHaveLength(2);
    const runs = new Map(response.body.services.map((move) => [move.service.id, move.runId ?? '']));
    const webDone = await settled(web, runs.get(web) ?? '');
    const apiDone = await settled(api, runs.get(api) ?? '');
    expect(webDone.run).toMatchObject({
      status: 'succeeded',
      kind: 'deploy',
      image: BUSYBOX_IMAGE,
    });
    expect(webDone.service).toMatchObject({
      state: 'running',
      stateReason: null,
      activeRunId: webDone.run.id,
    });
    expect(webDone.output).toContain('replica 1/1 healthy');
    expect(webDone.output).toContain('traffic switched');
    expect(apiDone.service.state).toBe('running');
    expect(await fetchServing(web)).toEqual([`web hello v1 ${secret.length}`]);
    expect(await fetchServing(api)).toEqual(['api hello']);
    const read = await bed.t.api.get(deployment(), as());
    expect(read.body.state).toBe('running');
    firstWebRun = webDone.run.id;

    // The node's inventory names the service each replica runs for: none is an orphan.
    const inventory = await bed.t.api.get(`/orgs/${bed.org.id}/nodes/${nodeId}/inventory`, as());
    expect(inventory.status, inventory.text).toBe(200);
    const replicas = inventory.body.containers.filter(
      (container) => container.labels['sparrow.deployment'] === deploymentId,
    );
    expect(replicas.map((container) => container.service?.name).sort()).toEqual(['api', 'web']);
    for (const replica of replicas) {
      expect(replica).toMatchObject({
        orphan: false,
        worker: null,
        service: { deploymentId, state: 'running' },
      });
    }
  });

  it('starts a replica whose process dies again, in place', async () => {
    const [replica] = await activeReplicas(bed.t.db, api);
    const container = docker.getContainer(replica?.container_name ?? '');
    const exec = await container.exec({
      Cmd: ['sh', '-c', 'kill -9 $(pidof httpd)'],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({});
    stream.resume();
    await new Promise((resolve) => stream.once('end', resolve));
    await eventually(
      async () => ((await container.inspect()).RestartCount > 0 ? true : undefined),
      60_000,
      'the engine to restart the replica',
    );
    const answers = await eventually(
      async () => {
        const seen = await fetchServing(api).catch(() => []);
        return seen.length === 1 ? seen : undefined;
      },
      60_000,
      'the restarted replica to answer',
    );
    expect(answers).toEqual(['api hello']);
  });

  it('deploys a changed configuration with two replicas while requests keep being answered', async () => {
    const patched = await bed.t.api.patch(
      service(web),
      { env: { VERSION: 'v2' }, replicas: 2 },
      as(),
    );
    expect(patched.status).toBe(200);
    let failed = 0;
    let answered = 0;
    const proxied = { ok: 0, failed: [] as string[] };
    let looping = true;
    const loop = (async () => {
      while (looping) {
        try {
          const pages = await fetchServing(web);
          answered += pages.length;
        } catch {
          failed++;
        }
      }
    })();
    // A client of the service's URL, through the server's proxy, meanwhile.
    const clientLoop = (async () => {
      while (looping) {
        const answer = await viaProxy(web).catch((error: unknown) => ({
          status: 0,
          body: String(error),
        }));
        if (answer.status === 200 && answer.body.startsWith('web hello')) proxied.ok++;
        else proxied.failed.push(`${answer.status} ${answer.body}`);
      }
    })();
    const done = await deploy(web);
    // The old replica drains, then goes.
    await eventually(
      async () => ((await liveReplicas(bed.t.db, web)).length === 2 ? true : undefined),
      60_000,
      'old replica removed',
    );
    looping = false;
    await Promise.all([loop, clientLoop]);
    expect(done.run.status).toBe('succeeded');
    expect(proxied.failed).toEqual([]);
    expect(proxied.ok).toBeGreaterThan(0);
    expect(done.output).toContain('replica 2/2 healthy');
    expect(await fetchServing(web)).toEqual([
      `web hello v2 ${secret.length}`,
      `web hello v2 ${secret.length}`,
    ]);
    expect(failed).toBe(0);
    expect(answered).toBeGreaterThan(0);
  });

  it('rolls back a version that never passes its health check: the old one keeps serving', async () => {
    await bed.t.api.patch(
      service(web),
      { env: { VERSION: 'v3' }, healthCheck: { path: '/missing', graceSeconds: 3 } },
      as(),
    );
    const before = (await bed.t.api.get(service(web), as())).body.activeRunId;
    const done = await deploy(web);
    expect(done.run.status).toBe('failed');
    expect(done.run.reason).toContain(
      'health check GET /missing on port 8080 did not pass within 3 s',
    );
    expect(done.service).toMatchObject({ state: 'running', activeRunId: before });
    expect(done.service.stateReason).toContain('the last deploy failed');
    expect(await fetchServing(web)).toEqual([
      `web hello v2 ${secret.length}`,
      `web hello v2 ${secret.length}`,
    ]);
    expect((await liveReplicas(bed.t.db, web)).every((r) => r.run_id === before)).toBe(true);
  });

  it('fails a deploy whose pre-deploy hook exits non-zero, with no traffic moved', async () => {
    await bed.t.api.patch(
      service(web),
      {
        healthCheck: { path: '/index.html', graceSeconds: 30 },
        preDeploy: { command: 'echo migrating $GREETING; exit 3' },
      },
      as(),
    );
    const before = (await bed.t.api.get(service(web), as())).body.activeRunId;
    const done = await deploy(web);
    expect(done.run).toMatchObject({ status: 'failed' });
    expect(done.run.reason).toContain('pre-deploy hook exited with code 3');
    expect(done.output).toContain('migrating hello');
    const hook = await bed.t.db
      .selectFrom('job_runs')
      .selectAll()
      .where('parent_id', '=', done.run.id)
      .executeTakeFirstOrThrow();
    expect(hook).toMatchObject({ kind: 'pre_deploy', status: 'failed', exit_code: 3 });
    expect(done.service).toMatchObject({ state: 'running', activeRunId: before });
    expect(at(await fetchServing(web), 0)).toBe(`web hello v2 ${secret.length}`);

    // The hook's container is gone; its output is replayed from the database.
    const leftovers = await docker.listContainers({
      all: true,
      filters: { label: [`sparrow.run=${done.run.id}`] },
    });
    expect(leftovers).toEqual([]);
    const replay = await openSocket(
      `${bed.baseUrl.replace('http', 'ws')}/api/job-runs/${hook.id}/logs`,
      bed.owner.token,
    );
    expect(await replay.closed).toMatchObject({ code: 1000 });
    expect(replay.output()).toContain('migrating hello');
    expect(replay.frames.at(-1)).toMatchObject({ type: 'end', status: 'failed', exitCode: 3 });
  });

  it('fails a deploy whose pre-deploy hook outlives its time-out', async () => {
    await bed.t.api.patch(
      service(web),
      { preDeploy: { command: 'echo slow; sleep 60', timeoutSeconds: 2 } },
      as(),
    );
    const before = (await bed.t.api.get(service(web), as())).body.activeRunId;
    const done = await deploy(web);
    expect(done.run.status).toBe('failed');
    expect(done.run.reason).toContain('pre-deploy hook timed out after 2 s');
    expect(done.service).toMatchObject({ state: 'running', activeRunId: before });
  });

  it('runs a passing hook, then deploys again the image of a previous deploy', async () => {
    await bed.t.api.patch(service(web), { preDeploy: { command: 'echo ok' }, replicas: 1 }, as());
    const unknown = await bed.t.api.post(`${service(web)}/deploy`, { runId: api }, as());
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknown_deploy');
    const done = await deploy(web, { runId: firstWebRun });
    expect(done.run).toMatchObject({ status: 'succeeded', image: BUSYBOX_IMAGE });
    expect(done.output).toContain('pre-deploy hook exited 0');
    expect(done.output).toContain('(deployed again)');
    expect(await fetchServing(web)).toEqual([`web hello v3 ${secret.length}`]);
  });

  it('runs a cron job now on request, outside its schedule', async () => {
    const patched = await bed.t.api.patch(
      service(web),
      { cronJobs: [{ name: 'report', schedule: '0 0 1 1 *', command: 'echo report $GREETING' }] },
      as(),
    );
    expect(patched.status).toBe(200);
    const ran = await bed.t.api.post(`${service(web)}/cron-jobs/report/run`, undefined, as());
    expect(ran.status).toBe(202);
    expect(ran.body).toMatchObject({ kind: 'cron', jobName: 'report', scheduledAt: null });
    const done = await settled(web, ran.body.id);
    expect(done.run).toMatchObject({ status: 'succeeded', exit_code: 0, image: BUSYBOX_IMAGE });
    expect(done.output).toContain('report hello');

    const unknown = await bed.t.api.post(`${service(web)}/cron-jobs/nightly/run`, undefined, as());
    expect(unknown.status).toBe(404);
    const reader = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    const refused = await bed.t.api.post(`${service(web)}/cron-jobs/report/run`, undefined, {
      token: reader.token,
    });
    expect(refused.status).toBe(403);
    const idle = await bed.t.api.post(
      `${deployment()}/services`,
      {
        name: 'idle',
        source: { type: 'image', image: BUSYBOX_IMAGE },
        cronJobs: [{ name: 'report', schedule: '0 0 1 1 *', command: 'true' }],
      },
      as(),
    );
    const notRunning = await bed.t.api.post(
      `${service(idle.body.id)}/cron-jobs/report/run`,
      undefined,
      as(),
    );
    expect(notRunning.status).toBe(409);
    expect(notRunning.body.error.code).toBe('service_not_running');
    await bed.t.api.patch(service(web), { cronJobs: [] }, as());
  });

  it('queues a deploy asked while another runs, and runs them in order', async () => {
    const first = await bed.t.api.post(`${service(api)}/deploy`, {}, as());
    const second = await bed.t.api.post(`${service(api)}/deploy`, {}, as());
    expect(second.status).toBe(202);
    const one = await settled(api, first.body.runId ?? '');
    const two = await settled(api, second.body.runId ?? '');
    expect([one.run.status, two.run.status]).toEqual(['succeeded', 'succeeded']);
    expect(Number(two.run.started_at)).toBeGreaterThanOrEqual(Number(one.run.ended_at));
    expect(two.service).toMatchObject({ state: 'running', activeRunId: two.run.id });
    expect(await fetchServing(api)).toEqual(['api hello']);
  });

  it('stops and starts a service, stops the deployment and deletes it with its containers', async () => {
    const stopped = await bed.t.api.post(`${service(api)}/stop`, {}, as());
    expect(stopped.status).toBe(202);
    expect(stopped.body).toMatchObject({ runId: null, service: { state: 'stopping' } });
    await eventually(
      async () =>
        (await bed.t.api.get(service(api), as())).body.state === 'stopped' ? true : undefined,
      60_000,
      'api stopped',
    );
    expect(await liveReplicas(bed.t.db, api)).toEqual([]);
    const started = await bed.t.api.post(`${service(api)}/start`, {}, as());
    expect(started.status).toBe(202);
    const again = await settled(api, started.body.runId ?? '');
    expect(again.run).toMatchObject({ status: 'succeeded', image: BUSYBOX_IMAGE });
    expect(await fetchServing(api)).toEqual(['api hello']);
    // Starting what runs is nothing to do.
    const idle = await bed.t.api.post(`${service(api)}/start`, {}, as());
    expect(idle.body.runId).toBeNull();

    const refused = await bed.t.api.delete(deployment(), as());
    expect(refused.status).toBe(409);
    const stopAll = await bed.t.api.post(`${deployment()}/stop`, {}, as());
    expect(stopAll.status).toBe(202);
    expect(stopAll.body.deployment.state).toBe('stopping');
    await eventually(
      async () =>
        (await bed.t.api.get(deployment(), as())).body.state === 'stopped' ? true : undefined,
      60_000,
      'deployment stopped',
    );
    const deleted = await bed.t.api.delete(deployment(), as());
    expect(deleted.status).toBe(204);
    const left = await docker.listContainers({
      all: true,
      filters: { label: [`sparrow.deployment=${deploymentId}`] },
    });
    expect(left).toEqual([]);
  });

  it('refuses the moves without a credential, without the scope, and across organizations', async () => {
    const other = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments`,
      { name: 'guarded' },
      as(),
    );
    const target = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments/${other.body.id}/services`,
      { name: 'one', source: { type: 'image', image: BUSYBOX_IMAGE } },
      as(),
    );
    const base = `/orgs/${bed.org.id}/deployments/${other.body.id}` as const;
    const paths = [
      `${base}/deploy`,
      `${base}/start`,
      `${base}/stop`,
      `${base}/services/${target.body.id}/deploy`,
      `${base}/services/${target.body.id}/start`,
      `${base}/services/${target.body.id}/stop`,
    ] as const;
    // Any member may move services, as they may change them.
    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    const memberStop = await bed.t.api.post(paths[5], {}, { token: member.token });
    expect(memberStop.status).toBe(202);
    expect(memberStop.body).toMatchObject({ runId: null, service: { state: 'stopped' } });
    const writer = await createKey(bed.t, bed.org, bed.owner, ['deployments:write']);
    expect((await bed.t.api.post(paths[2], {}, { token: writer.token })).status).toBe(202);
    const reader = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    const stranger = await createUser(bed.t);
    await createOrg(bed.t, stranger, 'Elsewhere');
    for (const path of paths) {
      expect((await bed.t.api.post(path, {}, {})).status).toBe(401);
      const scoped = await bed.t.api.post(path, {}, { token: reader.token });
      expect(scoped.status).toBe(403);
      expect(scoped.body.error.code).toBe('missing_scope');
      const foreign = await bed.t.api.post(path, {}, { token: stranger.token });
      expect(foreign.status).toBe(404);
    }
    // A deploy needs no body; the image's own command exits at once, so it fails, saying so.
    const bare = await bed.t.api.post(`${base}/services/${target.body.id}/deploy`, undefined, as());
    expect(bare.status).toBe(202);
    const failed = await eventually(
      async () => {
        const read = await bed.t.api.get(`${base}/services/${target.body.id}`, as());
        return read.body.state === 'failed' ? read.body : undefined;
      },
      60_000,
      'bare deploy settled',
    );
    expect(failed.stateReason).toContain('replica 1/1 exited with code 0 at start');
    const bad = await bed.t.api.post(
      `${base}/services/${target.body.id}/deploy`,
      { runId: 'x' },
      as(),
    );
    expect(bad.status).toBe(400);
    const both = await bed.t.api.post(
      `${base}/services/${target.body.id}/deploy`,
      { runId: target.body.id, image: 'x' },
      as(),
    );
    expect(both.body.error.code).toBe('unknown_deploy');
    // Nothing was queued by the refused calls.
    const read = await bed.t.api.get(`${base}/services/${target.body.id}`, as());
    expect(read.body.state).toBe('failed');
  });
});

expectNoSecretLeaks();
