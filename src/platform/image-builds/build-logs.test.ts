import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SuccessAt } from '../../../test/helpers/api-types.js';
import { at, present } from '../../../test/helpers/assert.js';
import {
  connectTestEngine,
  describeEngine,
  eventually,
  WORKSPACE_IMAGE,
} from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
} from '../../../test/helpers/nodes.js';
import { createKey, createOrg } from '../../../test/helpers/platform.js';

type Build = SuccessAt<`/orgs/${string}/projects/${string}/image-builds`, 'get', '/api'>[number];
type StepFrame = { type: 'step'; index: number } & Build['steps'][number];

/** The frames of `GET /api/image-builds/{buildId}/logs`, which its description states in prose. */
type BuildFrame =
  | StepFrame
  | { type: 'log'; data: string }
  | { type: 'end'; status: 'succeeded' | 'failed'; error: string | null };

interface Followed {
  frames: BuildFrame[];
  code: number;
}

/** Follows a build's logs to the end; rejects with the status of a refused upgrade. */
function follow(url: string, token?: string): Promise<Followed> {
  const socket = new WebSocket(url, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
  });
  const frames: BuildFrame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString())));
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused with ${response.statusCode}`)),
    );
    socket.once('error', reject);
    socket.once('close', (code) => resolve({ frames, code }));
  });
}

describeEngine('following an image build over a WebSocket', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let projectId: string;
  const as = () => ({ token: bed.owner.token });
  const logsUrl = (buildId: string) =>
    `${bed.baseUrl.replace(/^http/, 'ws')}/api/image-builds/${buildId}/logs`;
  const startBuild = async () => {
    const path = `/orgs/${bed.org.id}/projects/${projectId}/build` as const;
    const started = await bed.t.api.post(path, undefined, as());
    expect(started.status).toBe(202);
    return at(started.body, 0);
  };
  const record = async (buildId: string) => {
    const path = `/orgs/${bed.org.id}/projects/${projectId}/image-builds` as const;
    const builds = (await bed.t.api.get(path, as())).body;
    return present(
      builds.find((b) => b.id === buildId),
      'the build',
    );
  };
  const text = (frames: BuildFrame[]) =>
    frames
      .filter((frame) => frame.type === 'log')
      .map((frame) => frame.data)
      .join('');

  beforeAll(async () => {
    docker = await connectTestEngine();
    bed = await createNodeTestBed({ WORKER_IMAGE: WORKSPACE_IMAGE });
    await onlineNode(bed, docker, 'builder');
    const created = await bed.t.api.post(
      `/orgs/${bed.org.id}/projects`,
      { name: 'logged', features: { 'ghcr.io/devcontainers/features/go:1': {} } },
      as(),
    );
    projectId = created.body.id;
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
    const images = await docker.listImages({
      filters: { reference: [`localhost/sparrow/project-${projectId}`] },
    });
    for (const image of images) await docker.getImage(image.Id).remove({ force: true });
  });

  it('streams a build live: every step as it changes, the log as it grows, then the end', async () => {
    const queued = await startBuild();
    const { frames, code } = await follow(logsUrl(queued.id), bed.owner.token);
    expect(code).toBe(1000);
    const final = await record(queued.id);
    expect(final.status).toBe('succeeded');
    // Followed while it ran: steps were seen before they finished, the log came in parts.
    const steps = frames.filter((frame) => frame.type === 'step');
    expect(steps.some((step) => ['pending', 'running'].includes(step.status))).toBe(true);
    expect(frames.filter((frame) => frame.type === 'log').length).toBeGreaterThan(1);
    // Log frames add up to the log, nothing repeated or lost.
    expect(text(frames)).toBe(final.log);
    // The last frame of each step is its final state.
    const last = new Map<number, StepFrame>();
    for (const frame of steps) last.set(frame.index, frame);
    expect([...last.values()].map(({ type, index, ...step }) => step)).toEqual(final.steps);
    expect(frames.at(-1)).toEqual({ type: 'end', status: 'succeeded', error: null });
  });

  it('replays a finished build and ends at once', async () => {
    const queued = await startBuild();
    const final = await eventually(async () => {
      const found = await record(queued.id);
      return found.status === 'succeeded' ? found : undefined;
    }, 120_000);
    const { frames, code } = await follow(logsUrl(queued.id), bed.owner.token);
    expect(code).toBe(1000);
    expect(frames).toEqual([
      ...final.steps.map((step, index) => ({ type: 'step', index, ...step })),
      { type: 'log', data: final.log },
      { type: 'end', status: 'succeeded', error: null },
    ]);
    expect(final.steps.map((step) => step.status)).toEqual([
      'succeeded',
      'skipped',
      'skipped',
      'succeeded',
    ]);
  });

  it('refuses before the upgrade: no token 401, a key without projects:read 403, others 404', async () => {
    const known = at(
      (await bed.t.api.get(`/orgs/${bed.org.id}/projects/${projectId}/image-builds`, as())).body,
      0,
    );
    await expect(follow(logsUrl(known.id))).rejects.toThrow('refused with 401');
    const key = await createKey(bed.t, bed.org, bed.owner, ['workers:read']);
    await expect(follow(logsUrl(known.id), key.token)).rejects.toThrow('refused with 403');
    const reader = await createKey(bed.t, bed.org, bed.owner, ['projects:read']);
    expect((await follow(logsUrl(known.id), reader.token)).code).toBe(1000);

    const stranger = await createUser(bed.t);
    const elsewhere = await createOrg(bed.t, stranger, 'Elsewhere');
    await expect(follow(logsUrl(known.id), stranger.token)).rejects.toThrow('refused with 404');
    const foreignKey = await createKey(bed.t, elsewhere, stranger, ['projects:read']);
    await expect(follow(logsUrl(known.id), foreignKey.token)).rejects.toThrow('refused with 404');
    await expect(follow(logsUrl(randomUUID()), bed.owner.token)).rejects.toThrow(
      'refused with 404',
    );
    await expect(follow(logsUrl('not-a-uuid'), bed.owner.token)).rejects.toThrow(
      'refused with 400',
    );
  });
});
