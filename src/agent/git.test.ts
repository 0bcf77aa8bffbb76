import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUSYBOX_IMAGE,
  connectTestEngine,
  describeEngine,
  removeLabelled,
  testRunLabel,
  WORKSPACE_IMAGE,
} from '../../test/helpers/engine.js';
import { parseGitStatus } from './git.js';
import { Runtime } from './runtime.js';

const run = promisify(execFile);

describe('git status parsing', () => {
  it('reads branch, upstream, ahead and behind, and every kind of change', () => {
    const output = [
      '# branch.oid 1234abcd',
      '# branch.head feature/x',
      '# branch.upstream origin/feature/x',
      '# branch.ab +2 -3',
      '1 .M N... 100644 100644 100644 aaaa bbbb src/with space.ts',
      '2 R. N... 100644 100644 100644 aaaa bbbb R100 new name.md',
      'old name.md',
      'u UU N... 100644 100644 100644 100644 aaaa bbbb cccc conflict.txt',
      '? untracked.txt',
      '! ignored.log',
      '',
    ].join('\0');
    expect(parseGitStatus('/w', output)).toEqual({
      path: '/w',
      branch: 'feature/x',
      commit: '1234abcd',
      upstream: 'origin/feature/x',
      ahead: 2,
      behind: 3,
      clean: false,
      files: [
        { path: 'src/with space.ts', index: '.', workTree: 'M' },
        { path: 'new name.md', index: 'R', workTree: '.', originalPath: 'old name.md' },
        { path: 'conflict.txt', index: 'U', workTree: 'U' },
        { path: 'untracked.txt', index: '?', workTree: '?' },
        { path: 'ignored.log', index: '!', workTree: '!' },
      ],
    });
  });

  it('reads a fresh repository and a detached HEAD', () => {
    expect(parseGitStatus('/w', '# branch.oid (initial)\0# branch.head main\0')).toMatchObject({
      branch: 'main',
      commit: null,
      upstream: null,
      clean: true,
      files: [],
    });
    expect(parseGitStatus('/w', '# branch.oid abc\0# branch.head (detached)\0').branch).toBeNull();
  });
});

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: cwd,
    },
  });
  return stdout;
}

describeEngine('repositories in a worker', () => {
  let docker: Docker;
  let runtime: Runtime;
  let folder: string;
  let containerId: string;
  const labels = testRunLabel();

  beforeAll(async () => {
    docker = await connectTestEngine();
    runtime = new Runtime(docker);
    // A bare repository on the host with main and feature branches, as a project's remote.
    folder = await mkdtemp(join(tmpdir(), 'sparrow-git-'));
    const work = join(folder, 'work');
    await git(folder, 'init', '--quiet', '--initial-branch=main', work);
    await writeFile(join(work, 'README.md'), 'hello\n');
    await writeFile(join(work, 'old.txt'), 'old\n');
    await git(work, 'add', '.');
    await git(work, 'commit', '--quiet', '-m', 'first');
    await git(work, 'checkout', '--quiet', '-b', 'feature');
    await writeFile(join(work, 'feature.txt'), 'feature\n');
    await git(work, 'add', '.');
    await git(work, 'commit', '--quiet', '-m', 'feature work');
    await git(folder, 'clone', '--quiet', '--bare', work, join(folder, 'project.git'));

    const container = await runtime.createContainer({
      image: WORKSPACE_IMAGE,
      labels,
      mounts: [{ source: join(folder, 'project.git'), target: '/srv/git/project.git' }],
      env: {
        GIT_AUTHOR_NAME: 'Worker',
        GIT_AUTHOR_EMAIL: 'worker@example.com',
        GIT_COMMITTER_NAME: 'Worker',
        GIT_COMMITTER_EMAIL: 'worker@example.com',
      },
    });
    containerId = container.id;
  });

  afterAll(async () => {
    if (docker !== undefined) await removeLabelled(docker, labels);
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it('checks out each repository on its branch at start, and keeps them on a restart', async () => {
    const repositories = [
      { url: '/srv/git/project.git', branch: 'feature', path: '/workspace/project' },
      { url: '/srv/git/project.git', branch: 'sparrow/new-work', path: '/workspace/fresh' },
      { url: '/srv/git/missing.git', branch: 'main', path: '/workspace/broken' },
    ];
    const { checkouts } = await runtime.startContainer(containerId, repositories);
    expect(checkouts).toMatchObject([
      { path: '/workspace/project', ok: true, existing: false, branch: 'feature' },
      { path: '/workspace/fresh', ok: true, existing: false, branch: 'sparrow/new-work' },
      { path: '/workspace/broken', ok: false, existing: false, branch: null },
    ]);
    expect(checkouts[2]?.message).toMatch(/does not exist|not appear to be a git repository/);

    await runtime.stopContainer(containerId, 1);
    const again = await runtime.startContainer(containerId, repositories.slice(0, 1));
    expect(again.checkouts).toMatchObject([{ ok: true, existing: true, branch: 'feature' }]);
  });

  it('reports branch, ahead and behind, and changed files', async () => {
    const clean = await runtime.gitStatus(containerId, '/workspace/project');
    expect(clean).toMatchObject({
      branch: 'feature',
      upstream: 'origin/feature',
      ahead: 0,
      behind: 0,
      clean: true,
      files: [],
    });
    const fresh = await runtime.gitStatus(containerId, '/workspace/fresh');
    expect(fresh).toMatchObject({ branch: 'sparrow/new-work', upstream: null, clean: true });

    // One local commit ahead; one new commit on the remote, fetched: one behind.
    const inWorker = (script: string) =>
      runtime.exec(containerId, { command: ['bash', '-c', script], workdir: '/workspace/project' });
    await inWorker('echo more >> README.md && git commit -qam "local work"');
    const pushed = join(folder, 'pusher');
    await git(
      folder,
      'clone',
      '--quiet',
      '--branch',
      'feature',
      join(folder, 'project.git'),
      pushed,
    );
    await writeFile(join(pushed, 'remote.txt'), 'remote\n');
    await git(pushed, 'add', '.');
    await git(pushed, 'commit', '--quiet', '-m', 'remote work');
    await git(pushed, 'push', '--quiet', 'origin', 'feature');
    const fetched = await inWorker('git fetch --quiet origin');
    expect(fetched.exitCode).toBe(0);
    await inWorker(
      'echo changed >> feature.txt; echo new > untracked.txt; git mv old.txt renamed.txt',
    );

    const status = await runtime.gitStatus(containerId, '/workspace/project');
    expect(status).toMatchObject({ branch: 'feature', ahead: 1, behind: 1, clean: false });
    expect(status.files).toEqual(
      expect.arrayContaining([
        { path: 'feature.txt', index: '.', workTree: 'M' },
        { path: 'renamed.txt', index: 'R', workTree: '.', originalPath: 'old.txt' },
        { path: 'untracked.txt', index: '?', workTree: '?' },
      ]),
    );
    expect(status.files).toHaveLength(3);
  });

  it('says when a path is no repository, or the image has no git', async () => {
    await expect(runtime.gitStatus(containerId, '/tmp')).rejects.toMatchObject({
      code: 'not_a_repository',
    });
    const bare = await runtime.createContainer({ image: BUSYBOX_IMAGE, labels });
    await runtime.startContainer(bare.id);
    await expect(runtime.gitStatus(bare.id, '/tmp')).rejects.toMatchObject({
      code: 'git_unavailable',
    });
  });
});
