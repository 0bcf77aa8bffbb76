import type Docker from 'dockerode';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { present } from '../../../test/helpers/assert.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  removeLabelled,
} from '../../../test/helpers/engine.js';
import { createNodeTestBed, type NodeTestBed, onlineNode } from '../../../test/helpers/nodes.js';
import { endedRun } from '../../../test/helpers/runs.js';
import { type BuiltApp, buildApp } from '../../app.js';
import { newId } from '../../lib/ids.js';
import { modules } from '../../modules.js';
import { readRunOutput } from '../job-runs/output.js';
import { liveReplicas } from './replicas.js';

/**
 * Services across two server processes (a second application on the same
 * database): cron ticks run once whichever process sees them first, and a
 * deploy whose process died is taken over without leaving containers behind.
 */
describeEngine('services with two server processes', () => {
  let bed: NodeTestBed;
  let other: BuiltApp;
  let docker: Docker;
  let deploymentId: string;
  let serviceId: string;
  let projectId: string | undefined;
  const as = () => ({ token: bed.owner.token });
  const service = () =>
    `/orgs/${bed.org.id}/deployments/${deploymentId}/services/${serviceId}` as const;

  beforeAll(async () => {
    docker = await connectTestEngine();
    const env = { SERVICE_DRAIN_MS: '200', JOB_POLL_MS: '200', CRON_TICK_MS: '200' };
    bed = await createNodeTestBed(env);
    other = await buildApp({
      config: bed.t.ctx.config,
      db: bed.t.db,
      dbKind: bed.t.dbKind,
      modules,
      notifications: bed.t.notifications,
    });
    await other.app.ready();
    await onlineNode(bed, docker);
    const deployment = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments`,
      { name: 'timed' },
      as(),
    );
    deploymentId = deployment.body.id;
    const created = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services`,
      {
        name: 'worker',
        source: { type: 'image', image: BUSYBOX_IMAGE },
        command: 'exec sleep 3600',
      },
      as(),
    );
    serviceId = created.body.id;
  });
  afterAll(async () => {
    await other.app.close();
    await bed.close();
    await removeLabelled(docker, { 'sparrow.org': bed.org.id });
    if (projectId !== undefined) {
      const images = await docker.listImages({
        filters: { reference: [`localhost/sparrow/project-${projectId}`] },
      });
      for (const image of images) await docker.getImage(image.Id).remove({ force: true });
    }
  });

  const runEnded = (runId: string) => endedRun(bed.t.db, runId, 'run ended');

  it('runs a per-second cron job once per tick with two processes scheduling', async () => {
    const deployed = await bed.t.api.post(`${service()}/deploy`, {}, as());
    expect((await runEnded(deployed.body.runId ?? '')).status).toBe('succeeded');
    await bed.t.api.patch(
      service(),
      {
        cronJobs: [
          { name: 'tick', schedule: '* * * * * *', command: 'echo tick $SPARROW_SERVICE_ID' },
        ],
      },
      as(),
    );
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await bed.t.api.patch(service(), { cronJobs: [] }, as());
    const runs = await eventually(
      async () => {
        const rows = await bed.t.db
          .selectFrom('job_runs')
          .selectAll()
          .where('service_id', '=', serviceId)
          .where('kind', '=', 'cron')
          .orderBy('scheduled_at')
          .execute();
        return rows.length > 0 && rows.every((row) => !['queued', 'running'].includes(row.status))
          ? rows
          : undefined;
      },
      120_000,
      'cron runs ended',
    );
    const succeeded = runs.filter((run) => run.status === 'succeeded');
    expect(succeeded.length).toBeGreaterThanOrEqual(3);
    // The others started after the job was removed, and were cancelled for it.
    for (const run of runs.filter((candidate) => candidate.status !== 'succeeded')) {
      expect(run).toMatchObject({
        status: 'cancelled',
        reason: 'the service no longer runs this job',
      });
    }
    const ticks = runs.map((run) => present(run.scheduled_at).getTime());
    // One run per tick, and no tick skipped between the first and the last.
    expect(new Set(ticks).size).toBe(ticks.length);
    const first = present(ticks[0]);
    for (const [index, tick] of ticks.entries()) expect(tick).toBe(first + index * 1000);
    for (const run of succeeded) {
      expect(run).toMatchObject({ job_name: 'tick', exit_code: 0 });
      const output = (await readRunOutput(bed.t.db, run.id))
        .map((chunk) => Buffer.from(chunk.data).toString())
        .join('');
      expect(output).toBe(`tick ${serviceId}\n`);
    }
    const jobs = await bed.t.db
      .selectFrom('jobs')
      .select(['target_id', 'attempts', 'lease_owner'])
      .where(
        'target_id',
        'in',
        runs.map((run) => run.id),
      )
      .execute();
    expect(jobs).toHaveLength(runs.length);
    expect(jobs.every((job) => job.attempts === 1)).toBe(true);
  });

  it('takes over a deploy whose process died mid-way, leaving no container behind', async () => {
    const before = await liveReplicas(bed.t.db, serviceId);
    expect(before).toHaveLength(1);
    // A process asked a deploy, placed its replica and started its container, then died:
    // its job is running under a lease that ran out.
    // (Written here as the route writes them, with the job already claimed, so no runner races in.)
    const runId = newId();
    await bed.t.db
      .insertInto('job_runs')
      .values({
        id: runId,
        org_id: bed.org.id,
        deployment_id: deploymentId,
        service_id: serviceId,
        kind: 'deploy',
        status: 'running',
      })
      .execute();
    await bed.t.db
      .updateTable('services')
      .set({ state: 'deploying' })
      .where('id', '=', serviceId)
      .execute();
    await bed.t.db
      .insertInto('jobs')
      .values({
        id: newId(),
        kind: 'service.deploy',
        node_id: null,
        target_id: serviceId,
        payload: JSON.stringify({ runId }),
        state: 'running',
        attempts: 1,
        lease_owner: newId(),
        lease_expires_at: sql<Date>`now() + interval '1 hour'`,
      })
      .execute();
    const orphan = `sparrow-svc-${serviceId}-${runId.slice(-12)}-a1-1`;
    await bed.t.db
      .insertInto('service_replicas')
      .values({
        id: newId(),
        service_id: serviceId,
        run_id: runId,
        node_id: present(before[0]).node_id,
        container_name: orphan,
        port: null,
      })
      .execute();
    const container = await docker.createContainer({
      name: orphan,
      Image: BUSYBOX_IMAGE,
      Cmd: ['sleep', '3600'],
      Labels: { 'sparrow.managed': 'true', 'sparrow.org': bed.org.id },
    });
    await container.start();
    // The lease runs out.
    await bed.t.db
      .updateTable('jobs')
      .set({ lease_expires_at: sql<Date>`now() - interval '1 second'` })
      .where('target_id', '=', serviceId)
      .where('state', '=', 'running')
      .execute();
    const run = await runEnded(runId);
    expect(run.status).toBe('succeeded');
    const output = (await readRunOutput(bed.t.db, runId))
      .map((chunk) => Buffer.from(chunk.data).toString())
      .join('');
    expect(output).toContain('taken over (attempt 2)');
    expect(output).toContain('removing 1 container(s) of an unfinished deploy');
    const live = await eventually(
      async () => {
        const rows = await liveReplicas(bed.t.db, serviceId);
        return rows.length === 1 ? rows : undefined;
      },
      60_000,
      'one live replica',
    );
    expect(present(live[0]).run_id).toBe(runId);
    expect(present(live[0]).container_name).not.toBe(orphan);
    const containers = await docker.listContainers({
      all: true,
      filters: { label: [`sparrow.service=${serviceId}`] },
    });
    expect(containers.map((c) => c.Names[0]?.replace(/^\//, ''))).toEqual([
      present(live[0]).container_name,
    ]);
    await expect(docker.getContainer(orphan).inspect()).rejects.toThrow();
  });

  it("deploys a project's image, building it first when the node has none", async () => {
    const project = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, { name: 'built' }, as());
    projectId = project.body.id;
    const created = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services`,
      { name: 'from-project', source: { type: 'project', projectId }, command: 'exec sleep 3600' },
      as(),
    );
    const path =
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services/${created.body.id}` as const;
    const deployed = await bed.t.api.post(`${path}/deploy`, {}, as());
    const run = await runEnded(deployed.body.runId ?? '');
    const output = (await readRunOutput(bed.t.db, run.id))
      .map((chunk) => Buffer.from(chunk.data).toString())
      .join('');
    expect(run.status, output).toBe('succeeded');
    expect(run.image).toMatch(new RegExp(`^localhost/sparrow/project-${projectId}:v1-`));
    expect(output).toContain("building the project's image");
    const builds = await bed.t.api.get(
      `/orgs/${bed.org.id}/projects/${projectId}/image-builds`,
      as(),
    );
    expect(builds.body).toMatchObject([{ status: 'succeeded', image: run.image }]);
    const replicas = await liveReplicas(bed.t.db, created.body.id);
    const info = await docker.getContainer(present(replicas[0]).container_name).inspect();
    expect(info.Config.Image).toBe(run.image);
    await bed.t.api.post(`${path}/stop`, {}, as());
    await eventually(
      async () => ((await bed.t.api.get(path, as())).body.state === 'stopped' ? true : undefined),
      60_000,
      'stopped',
    );
  });

  it('removes the containers a deleted service still had, by a job', async () => {
    const created = await bed.t.api.post(
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services`,
      { name: 'leftover', source: { type: 'image', image: BUSYBOX_IMAGE } },
      as(),
    );
    const id: string = created.body.id;
    // A failed service whose replaced replica could not be removed (its node was away).
    const runId = newId();
    await bed.t.db
      .insertInto('job_runs')
      .values({
        id: runId,
        org_id: bed.org.id,
        deployment_id: deploymentId,
        service_id: id,
        kind: 'deploy',
        status: 'failed',
      })
      .execute();
    const nodeId = present((await bed.t.db.selectFrom('nodes').select('id').execute())[0]).id;
    const name = `sparrow-svc-${id}-${runId.slice(-12)}-a1-1`;
    await bed.t.db
      .insertInto('service_replicas')
      .values({
        id: newId(),
        service_id: id,
        run_id: runId,
        node_id: nodeId,
        container_name: name,
        port: null,
        state: 'draining',
      })
      .execute();
    await bed.t.db.updateTable('services').set({ state: 'failed' }).where('id', '=', id).execute();
    const container = await docker.createContainer({
      name,
      Image: BUSYBOX_IMAGE,
      Cmd: ['sleep', '3600'],
      Labels: { 'sparrow.managed': 'true', 'sparrow.org': bed.org.id },
    });
    await container.start();
    const deleted = await bed.t.api.delete(
      `/orgs/${bed.org.id}/deployments/${deploymentId}/services/${id}`,
      as(),
    );
    expect(deleted.status).toBe(204);
    await eventually(
      async () => {
        try {
          await docker.getContainer(name).inspect();
          return undefined;
        } catch {
          return true;
        }
      },
      60_000,
      'container removed',
    );
    const job = await bed.t.db
      .selectFrom('jobs')
      .selectAll()
      .where('target_id', '=', id)
      .where('kind', '=', 'service.cleanup')
      .executeTakeFirstOrThrow();
    expect(job.payload).toEqual({ containers: [{ nodeId, name }] });
  });
});
