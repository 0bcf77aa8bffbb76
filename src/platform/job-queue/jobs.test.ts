import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { present } from '../../../test/helpers/assert.js';
import { type FakeAgent, fakeContainers } from '../../../test/helpers/fake-agent.js';
import { createProject, onlineFakeNode, waitForNodeStatus } from '../../../test/helpers/nodes.js';
import { anotherProcess, listenOnLoopback } from '../../../test/helpers/processes.js';
import { newId } from '../../lib/ids.js';

/**
 * Jobs across server processes: a second application on the same database
 * stands for a second process (its own runner, registry and listener).
 */
describe('worker moves as jobs', () => {
  const bed = useNodeBed({ JOB_LEASE_MS: '600', JOB_POLL_MS: '100' });
  let other: FastifyInstance;
  let otherUrl: string;
  let projectId: string;
  const agents: FakeAgent[] = [];

  beforeAll(async () => {
    other = (await anotherProcess(bed.t, { notifications: false })).app;
    otherUrl = await listenOnLoopback(other);
    projectId = await createProject(bed, 'jobs');
  });
  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.close()));
    await other.close();
  });

  const workers = () => `/orgs/${bed.org.id}/projects/${projectId}/workers` as const;
  const as = () => ({ token: bed.owner.token });

  async function node(name: string, server: string, runtime = fakeContainers()) {
    const { id, agent } = await onlineFakeNode(bed, name, server, runtime, agents);
    return { id, agent, runtime };
  }

  async function job(workerId: string) {
    return present(
      await bed.t.db
        .selectFrom('jobs')
        .selectAll()
        .where('target_id', '=', workerId)
        .executeTakeFirst(),
      'job',
    );
  }

  it('runs a spawn asked of one process on the process holding the agent, and wait=true waits for it', async () => {
    const held = await node('held-elsewhere', otherUrl);
    const spawned = await bed.t.api.post(`${workers()}?wait=true`, { nodeId: held.id }, as());
    expect(spawned.status).toBe(201);
    expect(spawned.body).toMatchObject({ state: 'ready', nodeId: held.id });
    expect(held.agent.received.get('container.create')).toBe(1);
    expect(await job(spawned.body.id)).toMatchObject({
      kind: 'worker.create',
      state: 'succeeded',
      attempts: 1,
      lease_owner: null,
    });

    const stopped = await bed.t.api.post(
      `${workers()}/${spawned.body.id}/stop?wait=true`,
      {},
      as(),
    );
    expect(stopped.body).toMatchObject({ state: 'stopped' });
    const deleted = await bed.t.api.delete(`${workers()}/${spawned.body.id}?wait=true`, as());
    expect(deleted.status).toBe(204);
    expect(held.runtime.containers.size).toBe(0);
  });

  it('takes over a move whose process died once its lease ran out, adopting the container it made', async () => {
    const target = await node('takeover', bed.baseUrl, fakeContainers(['container.create']));
    // A process died mid-spawn: its worker is creating, its job running under a lease that ran out,
    // and the container it had asked for exists.
    const spawned = await bed.t.api.post(workers(), { nodeId: target.id }, as());
    const workerId: string = spawned.body.id;
    await bed.t.db
      .updateTable('jobs')
      .set({
        state: 'running',
        attempts: 1,
        lease_owner: newId(),
        lease_expires_at: sql<Date>`now() - interval '1 second'`,
      })
      .where('target_id', '=', workerId)
      .execute();
    target.runtime.containers.set('c-earlier-000000000000', { workerId, running: false });

    const worker = await pollWorker(workerId, (state) => state !== 'creating');
    expect(worker).toMatchObject({ state: 'ready', containerId: 'c-earlier-000000000000' });
    expect(await job(workerId)).toMatchObject({ state: 'succeeded', attempts: 2 });
  });

  it('fails the worker with a reason when its move was interrupted too often', async () => {
    const target = await node('flaky', bed.baseUrl, fakeContainers(['container.create']));
    const spawned = await bed.t.api.post(workers(), { nodeId: target.id }, as());
    const workerId: string = spawned.body.id;
    await bed.t.db
      .updateTable('jobs')
      .set({
        state: 'running',
        attempts: 3,
        lease_owner: newId(),
        lease_expires_at: sql<Date>`now() - interval '1 second'`,
      })
      .where('target_id', '=', workerId)
      .execute();
    const worker = await pollWorker(workerId, (state) => state !== 'creating');
    expect(worker).toMatchObject({ state: 'failed', stateReason: 'interrupted 3 times' });
    expect(await job(workerId)).toMatchObject({ state: 'failed', error: 'interrupted 3 times' });
  });

  it('leaves a job of a kind this process does not know queued, for a process that does', async () => {
    const target = await node('future', bed.baseUrl);
    const jobId = newId();
    await bed.t.db
      .insertInto('jobs')
      .values({ id: jobId, kind: 'deploy.future', node_id: target.id, target_id: newId() })
      .execute();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const row = await bed.t.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'queued', attempts: 0, error: null });
  });

  it('fails the move of a node that went away and did not come back, with the reason', async () => {
    const gone = await node('gone', bed.baseUrl, fakeContainers(['container.create']));
    const spawned = await bed.t.api.post(workers(), { nodeId: gone.id }, as());
    const workerId: string = spawned.body.id;
    await gone.agent.close();
    await waitForNodeStatus(bed, gone.id, 'offline');
    // Past the grace an agent has to come back.
    await bed.t.db
      .updateTable('nodes')
      .set({ last_seen_at: sql<Date>`now() - interval '5 minutes'` })
      .where('id', '=', gone.id)
      .execute();
    const worker = await pollWorker(workerId, (state) => state !== 'creating');
    expect(worker).toMatchObject({
      state: 'failed',
      stateReason: 'the node went offline before the move finished',
    });
  });

  async function pollWorker(workerId: string, done: (state: string) => boolean) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const response = await bed.t.api.get(`${workers()}/${workerId}`, as());
      if (done(response.body.state) || Date.now() > deadline) return response.body;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
