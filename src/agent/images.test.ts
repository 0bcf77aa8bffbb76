import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  removeLabelled,
  testRunLabel,
} from '../../test/helpers/engine.js';
import { unaryHandlers } from './handlers.js';
import { checkParams } from './protocol/codec.js';
import { Runtime } from './runtime.js';

describeEngine('image commit and removal against a real engine', () => {
  let docker: Docker;
  let runtime: Runtime;
  const labels = testRunLabel();
  const repository = `localhost/sparrow/test-commit-${randomBytes(4).toString('hex')}`;
  const references: string[] = [];

  beforeAll(async () => {
    docker = await connectTestEngine();
    runtime = new Runtime(docker);
  });

  afterAll(async () => {
    if (docker === undefined) return;
    await removeLabelled(docker, labels);
    for (const reference of references) {
      await docker
        .getImage(reference)
        .remove({ force: true })
        .catch(() => {});
    }
  });

  it('commits a running container as an image that keeps its files and the labels asked for', async () => {
    const handlers = unaryHandlers(runtime);
    const container = await runtime.createContainer({ image: BUSYBOX_IMAGE, labels });
    await runtime.startContainer(container.id);
    const wrote = await runtime.exec(container.id, {
      command: ['sh', '-c', 'mkdir -p /workspaces && echo built > /workspaces/marker'],
    });
    expect(wrote.exitCode).toBe(0);

    const committed = await handlers['image.commit']({
      containerId: container.id,
      repository,
      tag: 'v1-abc',
      labels: { 'sparrow.project-version': '1', 'sparrow.note': 'a:b/c@d+e' },
    });
    references.push(committed.reference);
    expect(committed.reference).toBe(`${repository}:v1-abc`);
    const image = await docker.getImage(committed.reference).inspect();
    expect(image.Id).toBe(committed.id);
    expect(image.Config.Labels).toMatchObject({
      ...labels,
      'sparrow.project-version': '1',
      'sparrow.note': 'a:b/c@d+e',
    });
    // The container was paused for the commit, and runs on.
    expect((await runtime.inspect(container.id)).running).toBe(true);

    const fromImage = await runtime.createContainer({ image: committed.reference, labels });
    await runtime.startContainer(fromImage.id);
    const read = await runtime.exec(fromImage.id, { command: ['cat', '/workspaces/marker'] });
    expect(read.stdout).toBe('built\n');

    // In use by a container: refused, and the image stays.
    await expect(
      handlers['image.remove']({ reference: committed.reference }),
    ).rejects.toMatchObject({ code: 'conflict' });
    await runtime.removeContainer(fromImage.id, true);
    await runtime.removeContainer(container.id, true);
    expect(await handlers['image.remove']({ reference: committed.reference })).toEqual({
      removed: true,
    });
    expect(await handlers['image.remove']({ reference: committed.reference })).toEqual({
      removed: false,
    });
    await expect(docker.getImage(committed.reference).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('reports a missing container as not_found', async () => {
    await expect(
      runtime.commitImage({ containerId: 'no-such-container', repository, tag: 'v1' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('accepts only plain label values and lowercase repositories on the wire', () => {
    const valid = (params: unknown) => checkParams('image.commit', params).ok;
    const base = { containerId: 'c1', repository, tag: 'v1' };
    expect(valid({ ...base, labels: { a: 'b' } })).toBe(true);
    expect(valid({ ...base, labels: { a: 'two words' } })).toBe(false);
    expect(valid({ ...base, labels: { a: 'x"y' } })).toBe(false);
    expect(valid({ ...base, repository: 'Upper/Case' })).toBe(false);
    expect(valid({ ...base, tag: '-bad' })).toBe(false);
    expect(checkParams('image.remove', { reference: 'a b' }).ok).toBe(false);
  });
});
