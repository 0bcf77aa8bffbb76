import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeBed } from '../../../test/fixtures/app.js';
import * as jobRuns from '../../../test/fixtures/job-runs.js';
import { createKey } from '../../../test/helpers/platform.js';
import { pollFor } from '../../../test/helpers/wait.js';
import { openSocket, refusedUpgrade, type TestSocket } from '../../../test/helpers/ws-client.js';
import { TOO_MANY_FOLLOWERS_CLOSE } from '../common/follower-quota.js';
import { RunOutput } from './output.js';

const CAP = 8;

const bed = useNodeBed({ LOG_FOLLOWERS_PER_CALLER: String(CAP) });
let service: jobRuns.RunService;

const insertRun = () => jobRuns.insertRun(bed, service);
const endRun = (id: string) => jobRuns.endRun(bed, id, 'succeeded', 0, null);
const logsUrl = (runId: string) => jobRuns.runLogsUrl(bed, runId);

const follow = (runId: string, token = bed.owner.token) => openSocket(logsUrl(runId), token);

/** Every follower gone and every place given back: nothing of them is kept. */
async function nothingKept() {
  await pollFor(
    () =>
      bed.t.ctx.runFeeds.readers === 0 && bed.t.ctx.followers.callers === 0 ? true : undefined,
    20_000,
    'no reader and no follower left',
  );
}

beforeAll(async () => {
  service = await jobRuns.runService(bed);
});

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
    const next = await pollFor(
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
