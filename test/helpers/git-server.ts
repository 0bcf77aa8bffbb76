import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export function git(cwd: string, ...args: string[]) {
  return run('git', args, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  });
}

export interface GitServer {
  /** The repository's URL as containers see it (Podman's host.containers.internal). */
  url: string;
  close(): Promise<void>;
}

/**
 * A bare repository (branches `main` and `feature`) served over git's "dumb"
 * HTTP protocol (static files), so that containers can clone it from the host.
 */
export async function startGitServer(): Promise<GitServer> {
  const folder = await mkdtemp(join(tmpdir(), 'sparrow-git-'));
  const work = join(folder, 'work');
  await run('git', ['init', '--quiet', '--initial-branch=main', work]);
  await writeFile(join(work, 'README.md'), '# project\n');
  await git(work, 'add', '.');
  await git(work, 'commit', '--quiet', '-m', 'first');
  await git(work, 'checkout', '--quiet', '-b', 'feature');
  await writeFile(join(work, 'feature.txt'), 'feature\n');
  await git(work, 'add', '.');
  await git(work, 'commit', '--quiet', '-m', 'feature');
  await git(work, 'checkout', '--quiet', 'main');
  const bare = join(folder, 'project.git');
  await git(folder, 'clone', '--quiet', '--bare', work, bare);
  await git(bare, 'update-server-info');
  const server: Server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    if (!path.startsWith('/project.git/')) return void response.writeHead(404).end();
    readFile(join(folder, path)).then(
      (body) => response.writeHead(200).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://host.containers.internal:${port}/project.git`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    },
  };
}
