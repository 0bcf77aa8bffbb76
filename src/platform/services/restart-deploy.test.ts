import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
} from '../../../test/helpers/engine.js';
import { RestartBed } from '../../../test/helpers/restart-bed.js';

/** Where a deploy is, as its run's output tells. */
const STAGES: Array<{ stage: string; reached: (output: string) => boolean }> = [
  {
    stage: 'hook',
    reached: (o) => o.includes('pre-deploy hook:') && !o.includes('pre-deploy hook exited'),
  },
  { stage: 'start', reached: (o) => o.includes('pre-deploy hook exited 0') },
  { stage: 'health check', reached: (o) => /replica \d\/2 started/.test(o) && !/healthy/.test(o) },
  { stage: 'switch', reached: (o) => o.includes('replica 1/2 healthy') },
  { stage: 'drain', reached: (o) => o.includes('draining') },
];

/**
 * A deploy whose server is killed (kill -9) at each of its stages, the
 * server started again while the agent is held away a moment: the new
 * process takes the deploy over before the agent is back. In the end no
 * container of the service exists but the serving replicas.
 */
describeEngine('deploys taken over after kill -9', () => {
  let bed: RestartBed;
  let docker: Docker;
  let serviceId = '';
  let servicePath = '';

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await RestartBed.start({ SERVICE_DRAIN_MS: '8000' });
    const deployment = await bed.call<{ id: string }>('POST', `/orgs/${bed.orgId}/deployments`, {
      name: 'restarts',
    });
    expect(deployment.status).toBe(201);
    const path = `/orgs/${bed.orgId}/deployments/${deployment.body.id}/services`;
    const service = await bed.call<{ id: string }>('POST', path, {
      name: 'web',
      source: { type: 'image', image: BUSYBOX_IMAGE },
      // Slow to pass its health check, so a kill can land while it is checked.
      command:
        'sleep 4; mkdir -p /www && echo up > /www/index.html && exec httpd -f -p 8080 -h /www',
      port: 8080,
      healthCheck: { path: '/index.html', graceSeconds: 60 },
      preDeploy: { command: 'sleep 6', timeoutSeconds: 60 },
      replicas: 2,
    });
    expect(service.status).toBe(201);
    serviceId = service.body.id;
    servicePath = `${path}/${serviceId}`;
  }, 180_000);
  afterAll(async () => {
    await bed?.close();
    if (bed?.orgId) await removeLabelled(docker, { 'sparrow.org': bed.orgId });
  });

  const output = async (runId: string) =>
    String((await bed.call('GET', `/orgs/${bed.orgId}/job-runs/${runId}/output`)).body);

  async function ended(runId: string) {
    return eventually(
      async () => {
        const run = await bed.call<{ status: string; stateReason?: string }>(
          'GET',
          `/orgs/${bed.orgId}/job-runs/${runId}`,
        );
        return ['succeeded', 'failed'].includes(run.body.status) ? run.body : undefined;
      },
      240_000,
      `run ${runId} ended`,
    );
  }

  async function deploy(): Promise<string> {
    const started = await bed.call<{ runId: string }>('POST', `${servicePath}/deploy`, {});
    expect(started.status).toBe(202);
    return started.body.runId;
  }

  /** The service's containers on the engine: only the serving replicas of its active deploy. */
  async function onlyServing(): Promise<void> {
    const service = await bed.call<{ activeRunId: string; state: string }>('GET', servicePath);
    expect(service.body.state).toBe('running');
    const seen = await eventually(
      async () => {
        const containers = await docker.listContainers({
          all: true,
          filters: { label: [`sparrow.service=${serviceId}`] },
        });
        const names = containers.map((c) => (c.Names[0] ?? '').replace(/^\//, '')).sort();
        const attempts = new Set(names.map((name) => /-a(\d+)-\d+$/.exec(name)?.[1]));
        const serving =
          containers.length === 2 &&
          containers.every((c) => c.Labels['sparrow.run'] === service.body.activeRunId) &&
          names.every((name) => name.startsWith('sparrow-svc-')) &&
          attempts.size === 1;
        return serving ? names : undefined;
      },
      90_000,
      'only the serving replicas left',
    ).catch(async (error: unknown) => {
      const left = await docker.listContainers({
        all: true,
        filters: { label: [`sparrow.service=${serviceId}`] },
      });
      throw new Error(
        `${String(error)}: ${JSON.stringify(left.map((c) => [c.Names, c.State, c.Labels['sparrow.run']]))}`,
      );
    });
    expect(seen).toHaveLength(2);
  }

  it('leaves no container but the serving replicas, whatever the stage it was killed at', async () => {
    const first = await deploy();
    expect((await ended(first)).status).toBe('succeeded');
    await onlyServing();
    for (const { stage, reached } of STAGES) {
      const runId = await deploy();
      await eventually(
        async () => (reached(await output(runId)) ? true : undefined),
        90_000,
        `the deploy at its ${stage}`,
      );
      bed.agent?.kill('SIGSTOP');
      await bed.kill();
      await bed.restart();
      // The restarted process takes the deploy over while the agent is still away.
      await eventually(
        async () => ((await output(runId)).includes('taken over') ? true : undefined),
        60_000,
        `the deploy taken over (${stage})`,
      ).catch(() => {});
      bed.agent?.kill('SIGCONT');
      const run = await ended(runId);
      const warnings = bed.server
        .output()
        .split('\n')
        .filter((line) => /"level":(40|50|60)/.test(line));
      expect(
        run.status,
        `${stage}: ${JSON.stringify(run)}\n${await output(runId)}\n${warnings.join('\n')}`,
      ).toBe('succeeded');
      await onlyServing();
      expect(bed.alive()).toBe(true);
    }
  }, 1_500_000);
});
