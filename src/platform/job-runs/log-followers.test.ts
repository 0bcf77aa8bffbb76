import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTestBed, type NodeTestBed } from '../../../test/helpers/nodes.js';
import { createKey } from '../../../test/helpers/platform.js';
import { openSocket, refusedUpgrade, type TestSocket } from '../../../test/helpers/ws-client.js';
import { newId } from '../../lib/ids.js';
import { TOO_MANY_FOLLOWERS_CLOSE } from '../common/follower-quota.js';
import { RunOutput } from './output.js';

const CAP = 8;

/** Polls `check` until it gives a value (the machine is shared: a generous deadline). */
async function eventually<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

let bed: NodeTestBed;
let deploymentId: string;
let serviceId: string;

async function insertRun(): Promise<string> {
  const id = newId();
  await bed.t.db
    .insertInto('job_runs')
    .values({
      id,
      org_id: bed.org.id,
      deployment_id: deploymentId,
      service_id: serviceId,
      kind: 'deploy',
      job_name: null,
      parent_id: null,
      status: 'running',
      reason: null,
      exit_code: null,
      image: 'busybox:1.36',
      scheduled_at: null,
      started_at: new Date(),
      ended_at: null,
    })
    .execute();
  return id;
}

async function endRun(id: string) {
  await bed.t.db
    .updateTable('job_runs')
    .set({ status: 'succeeded', exit_code: 0, ended_at: new Date() })
    .where('id', '=', id)
    .execute();
}

const logsUrl = (runId: string) =>
  `${bed.baseUrl.replace(/^http/, 'ws')}/api/job-runs/${runId}/logs`;

const follow = (runId: string, token = bed.owner.token) => openSocket(logsUrl(runId), token);

/** Every follower gone and every place given back: nothing of them is kept. */
async function nothingKept() {
  await eventually(
    () =>
      bed.t.ctx.runFeeds.readers === 0 && bed.t.ctx.followers.callers === 0 ? true : undefined,
    20_000,
    'no reader and no follower left',
  );
}

beforeAll(async () => {
  bed = await createNodeTestBed({ LOG_FOLLOWERS_PER_CALLER: String(CAP) });
  const as = { token: bed.owner.token };
  const deployment = await bed.t.api.post(`/orgs/${bed.org.id}/deployments`, { name: 'App' }, as);
  deploymentId = deployment.body.id;
  const service = await bed.t.api.post(
    `/orgs/${bed.org.id}/deployments/${deploymentId}/services`,
    { name: 'web', source: { type: 'image', image: 'busybox:1.36' } },
    as,
  );
  serviceId = service.body.id;
});
afterAll(() => bed.close());

describe('job-run log followers share one reader', () => {
  it('serves many followers of a run with one reader, each the whole output in order, and keeps nothing after', async () => {
    const runId = await insertRun();
    const output = new RunOutput(bed.t.db, runId);
    const key = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    let expected = '';
    const write = async (text: string) => {
      output.write(text);
      expected += text;
      await output.flush();
    };
    await write('before anyone\n');
    const early: TestSocket[] = [];
    for (let i = 0; i < CAP; i++) early.push(await follow(runId));
    await write('line 1\n');
    // Late joiners (another caller): replayed from the start, then live.
    const late: TestSocket[] = [];
    for (let i = 0; i < CAP / 2; i++) late.push(await follow(runId, key.token));
    const all = [...early, ...late];
    expect(bed.t.ctx.runFeeds.readers).toBe(1);
    expect(bed.t.ctx.runFeeds.followers(runId)).toBe(all.length);
    for (let i = 2; i <= 20; i++) await write(`line ${i}\n`);
    await endRun(runId);
    for (const client of all) {
      expect(await client.closed).toEqual({ code: 1000, reason: 'run succeeded' });
      expect(client.frames[0]).toMatchObject({ type: 'ready', runId });
      expect(client.output()).toBe(expected);
      expect(client.frames.filter((frame) => frame.type === 'end')).toHaveLength(1);
      expect(client.frames.at(-1)).toMatchObject({ type: 'end', status: 'succeeded' });
    }
    await nothingKept();
  });

  it('stops the reader when the last follower leaves a run that goes on', async () => {
    const runId = await insertRun();
    const clients = await Promise.all([follow(runId), follow(runId), follow(runId)]);
    await Promise.all(clients.map((client) => client.frame((frame) => frame.type === 'ready')));
    expect(bed.t.ctx.runFeeds.readers).toBe(1);
    for (const client of clients) client.close();
    await nothingKept();
    // A new follower starts a new reader, replaying from the start.
    const output = new RunOutput(bed.t.db, runId);
    output.write('after the others left\n');
    await output.flush();
    const again = await follow(runId);
    await again.waitForOutput('after the others left\n');
    expect(bed.t.ctx.runFeeds.readers).toBe(1);
    again.close();
    await nothingKept();
  });

  it(`refuses a caller's follower past ${CAP} with 429 too_many_followers, and gives the place back on close`, async () => {
    const runId = await insertRun();
    const held: TestSocket[] = [];
    for (let i = 0; i < CAP; i++) held.push(await follow(runId));
    const refused = await refusedUpgrade(logsUrl(runId), {
      authorization: `Bearer ${bed.owner.token}`,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_followers');
    // The cap is per caller: a key of the same person counts on its own.
    const key = await createKey(bed.t, bed.org, bed.owner, ['deployments:read']);
    const byKey = await follow(runId, key.token);
    await byKey.frame((frame) => frame.type === 'ready');
    held[0]?.close();
    const next = await eventually(
      async () => {
        try {
          return await follow(runId);
        } catch {
          return undefined;
        }
      },
      20_000,
      'a place given back',
    );
    await next.frame((frame) => frame.type === 'ready');
    for (const client of [...held, byKey, next]) client.close();
    await nothingKept();
  });

  it('holds the cap under concurrent opens: never more than the cap, the others refused with the code', async () => {
    for (let round = 0; round < 5; round++) {
      const runId = await insertRun();
      const attempts = await Promise.all(
        Array.from({ length: CAP + 6 }, () =>
          follow(runId).then(
            async (client) => {
              const first = await Promise.race([
                client.frame((frame) => frame.type === 'ready').then(() => 'ready' as const),
                client.closed.then((closed) => closed),
              ]);
              return { client, first };
            },
            (error: unknown) => ({ client: null, first: String(error) }),
          ),
        ),
      );
      const open = attempts.filter(({ first }) => first === 'ready');
      expect(open).toHaveLength(CAP);
      for (const { first } of attempts.filter((attempt) => attempt.first !== 'ready')) {
        // 429 before the upgrade, or the documented close right after it.
        if (typeof first === 'string') expect(first).toMatch(/429/);
        else
          expect(first).toEqual({ code: TOO_MANY_FOLLOWERS_CLOSE, reason: 'too_many_followers' });
      }
      for (const { client } of attempts) client?.close();
      await nothingKept();
    }
  });
});
