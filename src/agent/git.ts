import type Docker from 'dockerode';
import { AgentError } from './errors.js';
import { execRun } from './exec.js';
import type { Checkout, Env, GitFile, GitStatus, Repository } from './protocol/schemas.js';

/**
 * Clones into an empty path, then puts HEAD on the branch: the remote's when
 * it has one, else a new branch from the default one. A path that already
 * holds a repository is left alone (a restarted worker keeps its work).
 * Inputs come as variables, never spliced into the script.
 */
const CHECKOUT_SCRIPT = `set -e
url="$SPARROW_GIT_URL"; path="$SPARROW_GIT_PATH"; branch="$SPARROW_GIT_BRANCH"
if [ -e "$path/.git" ]; then
  echo "existing $(git -C "$path" symbolic-ref --quiet --short HEAD || true)"
  exit 0
fi
mkdir -p "$(dirname "$path")"
git clone --quiet -- "$url" "$path"
cd "$path"
if [ -n "$branch" ] && [ "$(git symbolic-ref --quiet --short HEAD || true)" != "$branch" ]; then
  if git rev-parse --verify --quiet "refs/remotes/origin/$branch" >/dev/null; then
    git checkout --quiet -B "$branch" --track "origin/$branch"
  else
    git checkout --quiet -b "$branch"
  fi
fi
echo "cloned $(git symbolic-ref --quiet --short HEAD || true)"
`;

export async function checkoutRepository(
  docker: Docker,
  containerId: string,
  repository: Repository,
  gitEnv: Env = {},
): Promise<Checkout> {
  const result = await execRun(docker, containerId, {
    command: ['/bin/sh', '-c', CHECKOUT_SCRIPT],
    env: {
      GIT_TERMINAL_PROMPT: '0',
      ...gitEnv,
      SPARROW_GIT_URL: repository.url,
      SPARROW_GIT_PATH: repository.path,
      SPARROW_GIT_BRANCH: repository.branch ?? '',
    },
    timeoutMs: 10 * 60 * 1000,
  });
  const last = result.stdout.trim().split('\n').pop() ?? '';
  const [word = '', branch = ''] = last.split(' ');
  if (result.exitCode !== 0) {
    const reason = result.timedOut
      ? 'timed out'
      : result.stderr.trim() || `exit ${result.exitCode}`;
    return { path: repository.path, ok: false, existing: false, branch: null, message: reason };
  }
  const existing = word === 'existing';
  return {
    path: repository.path,
    ok: true,
    existing,
    branch: branch === '' ? null : branch,
    message: existing ? 'already checked out' : 'cloned',
  };
}

function header(status: GitStatus, line: string): void {
  const [, key = '', ...rest] = line.split(' ');
  const value = rest.join(' ');
  if (key === 'branch.oid') status.commit = value === '(initial)' ? null : value;
  if (key === 'branch.head') status.branch = value === '(detached)' ? null : value;
  if (key === 'branch.upstream') status.upstream = value;
  if (key === 'branch.ab') {
    const match = /^\+(\d+) -(\d+)$/.exec(value);
    status.ahead = Number(match?.[1] ?? 0);
    status.behind = Number(match?.[2] ?? 0);
  }
}

/** Parses `git status --porcelain=v2 --branch -z`. */
export function parseGitStatus(path: string, output: string): GitStatus {
  const status: GitStatus = {
    path,
    branch: null,
    commit: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    clean: true,
    files: [],
  };
  const records = output.split('\0');
  for (let i = 0; i < records.length; i++) {
    const record = records[i] ?? '';
    if (record === '') continue;
    if (record.startsWith('# ')) {
      header(status, record);
      continue;
    }
    const kind = record[0];
    let file: GitFile | undefined;
    if (kind === '?' || kind === '!') {
      file = { path: record.slice(2), index: kind, workTree: kind };
    } else if (kind === '1' || kind === '2' || kind === 'u') {
      // Fields before the path: 1 has 8, 2 has 9 (plus the score), u has 10.
      const fieldCount = kind === '1' ? 8 : kind === '2' ? 9 : 10;
      const fields = record.split(' ');
      const xy = fields[1] ?? '..';
      file = {
        path: fields.slice(fieldCount).join(' '),
        index: xy[0] ?? '.',
        workTree: xy[1] ?? '.',
      };
      if (kind === '2') {
        i++;
        file.originalPath = records[i] ?? '';
      }
    }
    if (file === undefined) continue;
    status.files.push(file);
    if (kind !== '!') status.clean = false;
  }
  return status;
}

export async function gitStatus(
  docker: Docker,
  containerId: string,
  path: string,
): Promise<GitStatus> {
  const result = await execRun(docker, containerId, {
    command: [
      'git',
      '-c',
      'safe.directory=*',
      '-C',
      path,
      'status',
      '--porcelain=v2',
      '--branch',
      '-z',
      '--untracked-files=all',
    ],
    env: { GIT_OPTIONAL_LOCKS: '0' },
    timeoutMs: 60_000,
    maxOutputBytes: 8 * 1024 * 1024,
  });
  if (result.exitCode === 127 || /executable file not found|no such file/i.test(result.stderr)) {
    throw new AgentError('git_unavailable', 'git is not installed in the container');
  }
  if (result.exitCode !== 0) {
    const message = result.stderr.trim() || `git status exited with ${result.exitCode}`;
    const code = /not a git repository|cannot change to/i.test(message)
      ? 'not_a_repository'
      : 'git_failed';
    throw new AgentError(code, `${path}: ${message}`);
  }
  return parseGitStatus(path, result.stdout);
}
