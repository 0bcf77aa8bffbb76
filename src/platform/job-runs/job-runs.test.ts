import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from '../../../test/fixtures/app.js';
import { twoTenants } from '../../../test/fixtures/org.js';
import type { TestUser } from '../../../test/helpers/factories.js';
import { createKey, createPlatformTestApp, type TestOrg } from '../../../test/helpers/platform.js';
import { newId } from '../../lib/ids.js';
import { JOB_RUN_OUTPUT_CAP, RunOutput } from './output.js';
import type { JobRunKind, JobRunStatus } from './tables.js';

const t = useApp(() => createPlatformTestApp());
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let org: TestOrg;
let otherOrg: TestOrg;
let deploymentId: string;
let web: string;
let worker: string;
let deploymentUrl: `/orgs/${string}/deployments/${string}`;

const IMAGE = { type: 'image', image: 'busybox:1.36' } as const;

async function addService(name: string): Promise<string> {
  const response = await t.api.post(
    `${deploymentUrl}/services`,
    { name, source: IMAGE },
    { token: owner.token },
  );
  expect(response.status).toBe(201);
  return response.body.id;
}

let clock = Date.parse('2026-11-01T00:00:00Z');

async function insertRun(
  serviceId: string,
  fields: { kind?: JobRunKind; status?: JobRunStatus; exitCode?: number; jobName?: string } = {},
): Promise<string> {
  const id = newId();
  clock += 1000;
  await t.db
    .insertInto('job_runs')
    .values({
      id,
      org_id: org.id,
      deployment_id: deploymentId,
      service_id: serviceId,
      kind: fields.kind ?? 'deploy',
      job_name: fields.jobName ?? null,
      parent_id: null,
      status: fields.status ?? 'succeeded',
      reason: fields.status === 'failed' ? 'the health check never passed' : null,
      exit_code: fields.exitCode ?? null,
      image: 'busybox:1.36',
      scheduled_at: null,
      created_at: new Date(clock),
      started_at: new Date(clock),
      ended_at: fields.status === 'running' ? null : new Date(clock + 500),
    })
    .execute();
  return id;
}

const runIds: string[] = [];

beforeAll(async () => {
  ({ owner, org, outsider, member, otherOrg } = await twoTenants(t, 'Runs Org', 'Elsewhere'));
  const deployment = await t.api.post(
    `/orgs/${org.id}/deployments`,
    { name: 'Shop' },
    { token: owner.token },
  );
  deploymentId = deployment.body.id;
  deploymentUrl = `/orgs/${org.id}/deployments/${deploymentId}`;
  web = await addService('web');
  worker = await addService('worker');
  // Oldest first: 5 deploys of web (one failed), 2 cron runs of worker, 1 running deploy of worker.
  for (let i = 0; i < 5; i++) {
    runIds.push(await insertRun(web, { status: i === 2 ? 'failed' : 'succeeded', exitCode: 0 }));
  }
  runIds.push(await insertRun(worker, { kind: 'cron', jobName: 'nightly', exitCode: 0 }));
  runIds.push(await insertRun(worker, { kind: 'cron', jobName: 'nightly', exitCode: 3 }));
  runIds.push(await insertRun(worker, { status: 'running' }));
});

describe('job runs over REST', () => {
  it('lists the runs of a deployment newest first, in pages', async () => {
    const as = { token: owner.token };
    const first = await t.api.get(`${deploymentUrl}/job-runs`, { ...as, query: { limit: '3' } });
    expect(first.status).toBe(200);
    expect(first.body.runs.map((run) => run.id)).toEqual(runIds.slice(5).reverse());
    expect(first.body.nextBefore).toBe(runIds[5]);
    const second = await t.api.get(`${deploymentUrl}/job-runs`, {
      ...as,
      query: { limit: '3', before: first.body.nextBefore ?? '' },
    });
    expect(second.body.runs.map((run) => run.id)).toEqual(runIds.slice(2, 5).reverse());
    const third = await t.api.get(`${deploymentUrl}/job-runs`, {
      ...as,
      query: { limit: '3', before: second.body.nextBefore ?? '' },
    });
    expect(third.body.runs.map((run) => run.id)).toEqual(runIds.slice(0, 2).reverse());
    expect(third.body.nextBefore).toBeNull();
    expect(third.body.runs[0]).toEqual({
      id: runIds[1],
      deploymentId,
      serviceId: web,
      kind: 'deploy',
      jobName: null,
      parentId: null,
      status: 'succeeded',
      reason: null,
      exitCode: 0,
      image: 'busybox:1.36',
      scheduledAt: null,
      createdAt: expect.any(String),
      startedAt: expect.any(String),
      endedAt: expect.any(String),
      outputBytes: 0,
      outputTruncated: false,
    });
  });

  it('lists the runs of one service, filtered by kind and status', async () => {
    const url = `${deploymentUrl}/services/${worker}/job-runs` as const;
    const all = await t.api.get(url, { token: member.token });
    expect(all.body.runs.map((run) => run.id)).toEqual(runIds.slice(5).reverse());
    const cron = await t.api.get(url, { token: member.token, query: { kind: 'cron' } });
    expect(cron.body.runs.map((run) => run.jobName)).toEqual(['nightly', 'nightly']);
    const failedOrRunning = await t.api.get(`${deploymentUrl}/job-runs`, {
      token: member.token,
      query: { status: ['failed', 'running'] },
    });
    expect(failedOrRunning.body.runs.map((run) => run.id)).toEqual([runIds[7], runIds[2]]);
    expect(failedOrRunning.body.runs[1]?.reason).toBe('the health check never passed');
  });

  it('refuses bad input: an unknown kind, a limit out of range, a cursor of another list', async () => {
    const as = { token: owner.token };
    const kind = await t.api.get(`${deploymentUrl}/job-runs`, { ...as, query: { kind: 'build' } });
    expect(kind.status).toBe(400);
    expect(kind.body.error.code).toBe('validation_failed');
    const limit = await t.api.get(`${deploymentUrl}/job-runs`, { ...as, query: { limit: '0' } });
    expect(limit.status).toBe(400);
    const cursor = await t.api.get(`${deploymentUrl}/services/${web}/job-runs`, {
      ...as,
      query: { before: runIds[6] ?? '' },
    });
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe('invalid_cursor');
  });

  it('gets a run, and its output as text', async () => {
    const runId = runIds[0] ?? '';
    const output = new RunOutput(t.db, runId);
    output.write('migrating\n');
    output.write(Buffer.from('done ✓\n'));
    await output.flush();
    const run = await t.api.get(`/orgs/${org.id}/job-runs/${runId}`, { token: member.token });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ id: runId, serviceId: web, outputBytes: 19 });
    const text = await t.api.get(`/orgs/${org.id}/job-runs/${runId}/output`, {
      token: member.token,
    });
    expect(text.status).toBe(200);
    expect(text.headers['content-type']).toMatch(/^text\/plain/);
    expect(text.text).toBe('migrating\ndone ✓\n');
  });

  it('keeps 1 MiB of output and says the rest was dropped', async () => {
    const runId = await insertRun(web, { status: 'running' });
    const output = new RunOutput(t.db, runId);
    const block = `${'x'.repeat(64 * 1024 - 1)}\n`;
    for (let i = 0; i < 20; i++) output.write(block);
    await output.flush();
    const run = await t.api.get(`/orgs/${org.id}/job-runs/${runId}`, { token: owner.token });
    expect(run.body).toMatchObject({ outputBytes: JOB_RUN_OUTPUT_CAP, outputTruncated: true });
    const text = await t.api.get(`/orgs/${org.id}/job-runs/${runId}/output`, {
      token: owner.token,
    });
    expect(Buffer.byteLength(text.text)).toBe(JOB_RUN_OUTPUT_CAP);
  });

  it('needs deployments:read of a key, and hides other organizations', async () => {
    const runUrl = `/orgs/${org.id}/job-runs/${runIds[0]}` as const;
    expect((await t.api.get(runUrl)).status).toBe(401);
    const reader = await createKey(t, org, owner, ['deployments:read']);
    const other = await createKey(t, org, owner, ['projects:read']);
    expect((await t.api.get(runUrl, { token: reader.token })).status).toBe(200);
    expect((await t.api.get(`${deploymentUrl}/job-runs`, { token: reader.token })).status).toBe(
      200,
    );
    for (const path of [runUrl, `${runUrl}/output`, `${deploymentUrl}/job-runs`] as const) {
      const refused = await t.api.get(path, { token: other.token });
      expect(refused.status, path).toBe(403);
      expect(refused.body.error.code).toBe('missing_scope');
      const stranger = await t.api.get(path, { token: outsider.token });
      expect(stranger.status, path).toBe(404);
    }
    // A run of this organization asked for under another one the caller belongs to.
    const foreign = await t.api.get(`/orgs/${otherOrg.id}/job-runs/${runIds[0]}`, {
      token: outsider.token,
    });
    expect(foreign.status).toBe(404);
    const foreignList = await t.api.get(
      `/orgs/${otherOrg.id}/deployments/${deploymentId}/job-runs`,
      { token: outsider.token },
    );
    expect(foreignList.status).toBe(404);
    const foreignService = await t.api.get(
      `/orgs/${otherOrg.id}/deployments/${deploymentId}/services/${web}/job-runs`,
      { token: outsider.token },
    );
    expect(foreignService.status).toBe(404);
  });
});
