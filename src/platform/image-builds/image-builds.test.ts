import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { at, present } from '../../../test/helpers/assert.js';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  eventually,
  WORKSPACE_IMAGE,
} from '../../../test/helpers/engine.js';
import { createUser } from '../../../test/helpers/factories.js';
import { type GitServer, startGitServer } from '../../../test/helpers/git-server.js';
import {
  createNodeTestBed,
  type NodeTestBed,
  onlineNode,
  removeOrgContainers,
  startAgent,
} from '../../../test/helpers/nodes.js';
import { addMember, createKey, createOrg } from '../../../test/helpers/platform.js';
import { Runtime } from '../../agent/runtime.js';
import { newId } from '../../lib/ids.js';
import { INTERRUPTED } from './recovery.js';
import { insertBuilds, updateBuild } from './repository.js';
import { buildContainerName, FEATURE_SKIPPED } from './runner.js';

const FEATURE = 'ghcr.io/devcontainers/features/node:1';

describeEngine('image pre-builds on a real node', () => {
  let bed: NodeTestBed;
  let docker: Docker;
  let repo: GitServer;
  let projectId: string;
  let node: Awaited<ReturnType<typeof onlineNode>>;
  let built: Awaited<ReturnType<typeof finished>>;
  const projectIds: string[] = [];

  const as = () => ({ token: bed.owner.token });
  const projectPath = (id = projectId) => `/orgs/${bed.org.id}/projects/${id}` as const;
  const build = (id = projectId, token = bed.owner.token) =>
    bed.t.api.post(`${projectPath(id)}/build`, undefined, { token });
  const list = async (id = projectId) =>
    (await bed.t.api.get(`${projectPath(id)}/image-builds`, as())).body;
  const finished = (buildId: string, id = projectId) =>
    eventually(
      async () => {
        const found = (await list(id)).find((b) => b.id === buildId);
        return found?.status === 'succeeded' || found?.status === 'failed' ? found : undefined;
      },
      120_000,
      'the build to finish',
    );
  const createProject = async (body: object) => {
    const created = await bed.t.api.post(`/orgs/${bed.org.id}/projects`, body, as());
    expect(created.status).toBe(201);
    projectIds.push(created.body.id);
    return created.body.id;
  };
  const spawn = async () => {
    const path = `${projectPath()}/workers` as const;
    const spawned = await bed.t.api.post(path, {}, { ...as(), query: { wait: 'true' } });
    expect(spawned.status).toBe(201);
    expect(spawned.body.state).toBe('ready');
    return spawned.body;
  };
  const buildContainers = (buildId: string) =>
    docker.listContainers({
      all: true,
      filters: { label: [`sparrow.build=${buildId}`], name: [`sparrow-build-${buildId}`] },
    });

  beforeAll(async () => {
    docker = await connectTestEngine();
    repo = await startGitServer();
    bed = await createNodeTestBed({ WORKER_IMAGE: WORKSPACE_IMAGE });
    projectId = await createProject({
      name: 'app',
      repositories: [{ url: repo.url }],
      features: { [FEATURE]: { version: '20' } },
    });
  });
  afterAll(async () => {
    await bed.close();
    await removeOrgContainers(docker, bed.org);
    for (const id of projectIds) {
      // One reference per query: the engine requires every reference given to match.
      const images = await docker.listImages({
        filters: { reference: [`localhost/sparrow/project-${id}`] },
      });
      for (const image of images) await docker.getImage(image.Id).remove({ force: true });
    }
    await repo.close();
  });

  it('refuses without a credential, and with 409 no_node_available while no node is online', async () => {
    expect((await bed.t.api.post(`${projectPath()}/build`)).status).toBe(401);
    expect((await bed.t.api.get(`${projectPath()}/image-builds`)).status).toBe(401);
    const bad = await bed.t.api.post(`/orgs/${bed.org.id}/projects/not-a-uuid/build`, {}, as());
    expect(bad.status).toBe(400);
    const badList = await bed.t.api.get(`/orgs/${bed.org.id}/projects/nope/image-builds`, as());
    expect(badList.status).toBe(400);
    const none = await build();
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('no_node_available');
    expect(await list()).toEqual([]);
  });

  it('builds on the online node: base image, repositories, skipped feature, commit', async () => {
    node = await onlineNode(bed, docker, 'builder');
    const started = await build();
    expect(started.status).toBe(202);
    expect(started.body).toHaveLength(1);
    const queued = at(started.body, 0);
    expect(queued).toMatchObject({
      nodeId: node.id,
      projectVersion: 1,
      baseImage: WORKSPACE_IMAGE,
      image: `localhost/sparrow/project-${projectId}:v1-${queued.id}`,
      status: 'queued',
      current: false,
      error: null,
    });
    expect(queued.steps.map((step) => step.name)).toEqual([
      'base image',
      'repositories',
      `feature ${FEATURE}`,
      'commit',
    ]);

    built = await finished(queued.id);
    expect(built).toMatchObject({ status: 'succeeded', error: null, current: true });
    expect(built.steps.map((step) => step.status)).toEqual([
      'succeeded',
      'succeeded',
      'skipped',
      'succeeded',
    ]);
    expect(at(built.steps, 2).message).toBe(FEATURE_SKIPPED);
    for (const step of built.steps) {
      expect(Date.parse(present(step.finishedAt))).toBeGreaterThanOrEqual(
        Date.parse(present(step.startedAt)),
      );
    }
    expect(built.log).toContain('/workspaces/project');
    expect(built.log).toContain(`Build succeeded: ${built.image}`);
    expect(Date.parse(present(built.finishedAt))).toBeGreaterThanOrEqual(
      Date.parse(present(built.startedAt)),
    );

    const image = await docker.getImage(built.image).inspect();
    expect(image.Config.Labels).toMatchObject({
      'sparrow.build': built.id,
      'sparrow.project': projectId,
      'sparrow.project-version': '1',
    });
    expect(await buildContainers(built.id)).toEqual([]);
  });

  it('starts new workers from the built image while it is current, then from the base image', async () => {
    const worker = await spawn();
    expect(worker.image).toBe(built.image);
    // The clone came with the image.
    const log = await new Runtime(docker).exec(present(worker.containerId), {
      command: ['git', '-C', '/workspaces/project', 'log', '--format=%s'],
    });
    expect(log.stdout).toBe('first\n');

    const patched = await bed.t.api.patch(projectPath(), { description: 'changed' }, as());
    expect(patched.body.version).toBe(2);
    const [stale] = await list();
    expect(stale).toMatchObject({ id: built.id, current: false });
    expect((await spawn()).image).toBe(WORKSPACE_IMAGE);
  });

  it('fails a build whose repository cannot be cloned, and removes its container', async () => {
    const broken = await createProject({
      name: 'broken',
      repositories: [{ url: 'http://127.0.0.1:9/missing.git' }],
    });
    const started = await build(broken);
    const failed = await finished(at(started.body, 0).id, broken);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^repositories: .*checkout of \/workspaces\/missing failed/);
    expect(failed.current).toBe(false);
    expect(failed.steps.map((step) => step.status)).toEqual(['succeeded', 'failed', 'skipped']);
    expect(at(failed.steps, 2).message).toBe('Not run: an earlier step failed');
    expect(failed.log).toContain('Build failed');
    expect(await buildContainers(failed.id)).toEqual([]);
    await expect(docker.getImage(failed.image).inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('keeps the newest two images of a project on a node and removes older ones', async () => {
    const pruned = await createProject({ name: 'pruned' });
    const images: string[] = [];
    let last: Awaited<ReturnType<typeof finished>> | undefined;
    for (let round = 0; round < 3; round++) {
      const started = await build(pruned);
      last = await finished(at(started.body, 0).id, pruned);
      expect(last.status).toBe('succeeded');
      images.push(last.image);
    }
    expect(last?.log).toContain(`Removed the older image ${images[0]}`);
    await expect(docker.getImage(images[0] ?? '').inspect()).rejects.toMatchObject({
      statusCode: 404,
    });
    for (const kept of images.slice(1)) {
      await expect(docker.getImage(kept).inspect()).resolves.toBeDefined();
    }
  });

  it('fails a build cut off by a server restart once its job is taken over', async () => {
    // A build this process does not run, left `running` as a crashed server leaves it.
    const [row] = await insertBuilds(bed.t.db, [
      {
        id: newId(),
        org_id: bed.org.id,
        project_id: projectId,
        node_id: node.id,
        project_version: 1,
        base_image: WORKSPACE_IMAGE,
        image: `localhost/sparrow/project-${projectId}:v1-cut`,
        steps: ['base image', 'repositories', 'commit'].map((name, index) => ({
          name,
          status: index === 0 ? 'running' : 'pending',
          startedAt: index === 0 ? new Date().toISOString() : null,
          finishedAt: null,
          message: null,
        })),
        created_by: bed.owner.user.id,
      },
    ]);
    if (row === undefined) throw new Error('no build inserted');
    await updateBuild(bed.t.db, row.id, { status: 'running', started_at: new Date() });
    const leftover = await docker.createContainer({
      Image: BUSYBOX_IMAGE,
      name: buildContainerName(row.id),
      Cmd: ['sleep', '600'],
      Labels: { 'sparrow.build': row.id, 'sparrow.org': bed.org.id },
    });
    await leftover.start();
    expect(await buildContainers(row.id)).toHaveLength(1);
    // Its job, claimed by a process that died: the lease ran out.
    await bed.t.db
      .insertInto('jobs')
      .values({
        id: newId(),
        kind: 'image.build',
        node_id: node.id,
        target_id: row.id,
        state: 'running',
        attempts: 1,
        lease_owner: newId(),
        lease_expires_at: new Date(Date.now() - 1000),
        started_at: new Date(),
      })
      .execute();

    await node.agent.stop();
    node.agent = startAgent(bed, docker, node.token);
    const settled = await finished(row.id);
    expect(settled).toMatchObject({ status: 'failed', error: INTERRUPTED, current: false });
    expect(settled.steps.map((step) => step.status)).toEqual(['failed', 'skipped', 'skipped']);
    expect(at(settled.steps, 0).message).toBe(INTERRUPTED);
    expect(settled.log).toContain('Removed the build container');
    expect(await buildContainers(row.id)).toEqual([]);
    // Builds started on the new connection run as usual.
    const next = await build();
    expect((await finished(at(next.body, 0).id)).status).toBe('succeeded');
  });

  it('lets a key build with projects:write only, and hides builds from other organizations', async () => {
    const reader = await createKey(bed.t, bed.org, bed.owner, ['projects:read']);
    const refused = await build(projectId, reader.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('missing_scope');
    const listed = await bed.t.api.get(`${projectPath()}/image-builds`, { token: reader.token });
    expect(listed.status).toBe(200);
    expect(listed.body.length).toBeGreaterThan(0);

    const member = await addMember(bed.t, bed.org, bed.owner, 'member');
    const writer = await createKey(bed.t, bed.org, member, ['projects:write']);
    const queued = await build(projectId, writer.token);
    expect(queued.status).toBe(202);
    expect(at(queued.body, 0).createdBy).toBe(member.user.id);
    const third = await finished(at(queued.body, 0).id);
    expect(third.status).toBe('succeeded');
    // The first image is two builds old, but a worker's container uses it.
    expect(third.log).toContain(`Kept the older image ${built.image}: conflict: `);
    await expect(docker.getImage(built.image).inspect()).resolves.toBeDefined();

    const stranger = await createUser(bed.t);
    await createOrg(bed.t, stranger, 'Elsewhere');
    const hidden = await bed.t.api.get(`${projectPath()}/image-builds`, {
      token: stranger.token,
    });
    expect(hidden.status).toBe(404);
    expect((await build(projectId, stranger.token)).status).toBe(404);
  });
});
