import { beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useNodeBed } from '../../../test/fixtures/app.js';
import { registerNode } from '../../../test/helpers/nodes.js';
import { notify } from '../../db/listen.js';
import { newId } from '../../lib/ids.js';
import { IMAGE_BUILD_CHANNEL } from './activity.js';
import { updateBuild } from './repository.js';
import type { BuildStep } from './tables.js';

const bed = useNodeBed();
let projectId: string;
let nodeId: string;

async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Follower {
  frames: Array<{ type: string; index?: number; data?: string; status?: string }>;
  closed: Promise<number>;
  log(): string;
  close(): void;
}

async function follow(buildId: string): Promise<Follower> {
  const socket = new WebSocket(
    `${bed.baseUrl.replace(/^http/, 'ws')}/api/image-builds/${buildId}/logs`,
    { headers: { authorization: `Bearer ${bed.owner.token}` } },
  );
  const frames: Follower['frames'] = [];
  socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8'))));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return {
    frames,
    closed,
    log: () =>
      frames
        .filter((frame) => frame.type === 'log')
        .map((frame) => frame.data)
        .join(''),
    close: () => socket.close(),
  };
}

const step = (status: BuildStep['status']): BuildStep => ({
  name: 'clone app',
  status,
  startedAt: null,
  finishedAt: null,
  message: null,
});

beforeAll(async () => {
  const project = await bed.t.api.post(
    `/orgs/${bed.org.id}/projects`,
    { name: 'followed' },
    { token: bed.owner.token },
  );
  projectId = project.body.id;
  nodeId = (await registerNode(bed, 'builder')).id;
});

describe('image-build log followers share one reader', () => {
  it('serves many followers of a build, changed by another process, with one reader and keeps nothing after', async () => {
    const buildId = newId();
    await bed.t.db
      .insertInto('image_builds')
      .values({
        id: buildId,
        org_id: bed.org.id,
        project_id: projectId,
        node_id: nodeId,
        project_version: 1,
        base_image: 'base',
        image: 'made',
        status: 'running',
        steps: JSON.stringify([step('running')]),
        log: 'started\n',
        error: null,
        created_by: null,
        started_at: new Date(),
        finished_at: null,
      })
      .execute();
    // Written as another server process would: the row, then its NOTIFY.
    let log = 'started\n';
    const change = async (line: string, status: 'running' | 'succeeded' = 'running') => {
      log += line;
      await updateBuild(bed.t.db, buildId, {
        log,
        steps: [step(status === 'running' ? 'running' : 'succeeded')],
        status,
      });
      await notify(bed.t.db, IMAGE_BUILD_CHANNEL, buildId);
    };
    const early = await Promise.all(Array.from({ length: 6 }, () => follow(buildId)));
    await until(() => (early.every((f) => f.log() === log) ? true : undefined), 'the first log');
    await change('line 1\n');
    const late = await Promise.all(Array.from({ length: 4 }, () => follow(buildId)));
    expect(bed.t.ctx.builds.feeds.readers).toBe(1);
    expect(bed.t.ctx.builds.feeds.followers(buildId)).toBe(10);
    for (let i = 2; i <= 10; i++) await change(`line ${i}\n`);
    await change('done\n', 'succeeded');
    for (const follower of [...early, ...late]) {
      expect(await follower.closed).toBe(1000);
      expect(follower.log()).toBe(log);
      expect(follower.frames.at(-1)).toMatchObject({ type: 'end', status: 'succeeded' });
      expect(follower.frames.filter((frame) => frame.type === 'end')).toHaveLength(1);
      expect(follower.frames.filter((frame) => frame.type === 'step').at(-1)).toMatchObject({
        status: 'succeeded',
      });
    }
    await until(
      () =>
        bed.t.ctx.builds.feeds.readers === 0 && bed.t.ctx.followers.callers === 0
          ? true
          : undefined,
      'no reader and no follower left',
    );
  });
});
