import type Docker from 'dockerode';
import { AgentError } from './errors.js';
import { execRun } from './exec.js';
import type { TerminalCreateParams } from './protocol/methods.js';
import type { TerminalInfo } from './protocol/schemas.js';

/**
 * Terminal sessions held by tmux inside the container, so they outlive the
 * agent: its own server (`-L sparrow`, no user configuration), one session per
 * terminal, named from the terminal's name. The agent follows each with a
 * control-mode client (tmux-control.ts, tmux-terminal.ts), and lists the
 * sessions again after a restart.
 */
export const TMUX = ['tmux', '-u', '-L', 'sparrow', '-f', '/dev/null'];

/** Where a session's program records its exit status, inside the container. */
const EXIT_DIR = '/tmp/.sparrow/terminals';

/** Server options set with every new session: nothing of tmux's own shows or takes keys. */
const SERVER_OPTIONS = [
  ['status', 'off'],
  ['prefix', 'None'],
  ['prefix2', 'None'],
  ['escape-time', '0'],
  ['window-size', 'latest'],
  // The program's bytes go to the clients (xterm.js) as they are: it writes for an xterm.
  ['default-terminal', 'xterm-256color'],
];

/** The tmux session of a terminal: the name in hex, since tmux rewrites `.` and `:`. */
export function tmuxSessionName(name: string): string {
  return `sparrow-${Buffer.from(name, 'utf8').toString('hex')}`;
}

const LIST_FORMAT = [
  '#{session_name}',
  '#{@sparrow_name}',
  '#{@sparrow_created}',
  '#{window_width}',
  '#{window_height}',
  '#{session_attached}',
  '#{@sparrow_command}',
].join('\t');

/** Lists the sessions, or null when the image has no tmux (the agent then holds sessions itself). */
export async function listTmuxSessions(
  docker: Docker,
  containerId: string,
): Promise<TerminalInfo[] | null> {
  const result = await execRun(docker, containerId, {
    command: [
      '/bin/sh',
      '-c',
      'command -v tmux >/dev/null 2>&1 || exit 127; "$@" 2>/dev/null; exit 0',
      'sparrow-tmux-list',
      ...TMUX,
      'list-sessions',
      '-F',
      LIST_FORMAT,
    ],
    timeoutMs: 10_000,
  });
  if (result.exitCode === 127) return null;
  const sessions: TerminalInfo[] = [];
  for (const line of result.stdout.split('\n')) {
    const [session, name, created, cols, rows, attached, command] = line.split('\t');
    if (name === undefined || name === '' || session !== tmuxSessionName(name)) continue;
    sessions.push({
      name,
      containerId,
      command: parseCommand(command),
      cols: Number(cols) || 80,
      rows: Number(rows) || 24,
      createdAt: created || new Date(0).toISOString(),
      attachments: Number(attached) || 0,
    });
  }
  return sessions.sort((a, b) => a.name.localeCompare(b.name));
}

function parseCommand(text: string | undefined): string[] {
  try {
    const value: unknown = JSON.parse(text ?? '');
    if (Array.isArray(value) && value.every((part) => typeof part === 'string')) return value;
  } catch {}
  return [];
}

async function tmux(docker: Docker, containerId: string, args: string[]) {
  // A long scrollback with colours runs to megabytes; execRun keeps only the first 1 MiB by default.
  return execRun(docker, containerId, {
    command: [...TMUX, ...args],
    timeoutMs: 10_000,
    maxOutputBytes: 64 * 1024 * 1024,
  });
}

/** Starts the session, detached; its program records its exit status when it ends. */
export async function createTmuxSession(
  docker: Docker,
  params: TerminalCreateParams,
  command: string[],
  scrollback: number,
): Promise<TerminalInfo> {
  const session = tmuxSessionName(params.name);
  const cols = params.cols ?? 80;
  const rows = params.rows ?? 24;
  const createdAt = new Date().toISOString();
  const options = [...SERVER_OPTIONS, ['history-limit', String(scrollback)]].flatMap(
    ([name = '', value = '']) => ['set-option', '-g', name, value, ';'],
  );
  const env = Object.entries(params.env ?? {}).flatMap(([name, value]) => [
    '-e',
    `${name}=${value}`,
  ]);
  const wrapper = [
    'f=$1; shift; "$@"; code=$?',
    'mkdir -p "$(dirname "$f")"; echo "$code" >"$f"; exit "$code"',
  ].join('\n');
  const result = await tmux(docker, params.containerId, [
    'start-server',
    ';',
    ...options,
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    String(cols),
    '-y',
    String(rows),
    ...(params.workdir === undefined ? [] : ['-c', params.workdir]),
    ...env,
    '/bin/sh',
    '-c',
    wrapper,
    'sparrow-terminal',
    `${EXIT_DIR}/${session}.exit`,
    ...command,
  ]);
  if (result.exitCode !== 0) {
    if (result.stderr.includes('duplicate session')) {
      throw new AgentError('terminal_exists', `terminal ${params.name} already exists`);
    }
    throw new AgentError('engine_error', `tmux new-session failed: ${result.stderr.trim()}`);
  }
  // What the agent lists after a restart (tmux resolves targets of one command list up front).
  const target = `=${session}:`;
  await tmux(docker, params.containerId, [
    'set-option',
    '-t',
    target,
    '@sparrow_name',
    params.name,
    ';',
    'set-option',
    '-t',
    target,
    '@sparrow_created',
    createdAt,
    ';',
    'set-option',
    '-t',
    target,
    '@sparrow_command',
    JSON.stringify(command),
  ]);
  return {
    name: params.name,
    containerId: params.containerId,
    command,
    cols,
    rows,
    createdAt,
    attachments: 0,
  };
}

/** Ends the session's program (tmux sends it HUP, as a closing terminal does). */
export async function killTmuxSession(docker: Docker, containerId: string, name: string) {
  await tmux(docker, containerId, ['kill-session', '-t', `=${tmuxSessionName(name)}`]);
}

/**
 * Detaches the session's TTY clients: those an agent of an earlier version
 * left attached. Control clients (the agents' own) end with their agent, and
 * another agent's must not be taken from it.
 */
export async function detachTmuxClients(docker: Docker, containerId: string, name: string) {
  const listed = await tmux(docker, containerId, [
    'list-clients',
    '-t',
    `=${tmuxSessionName(name)}`,
    '-F',
    '#{client_control_mode} #{client_name}',
  ]);
  const clients = listed.stdout
    .split('\n')
    .filter((line) => line.startsWith('0 '))
    .map((line) => line.slice(2));
  for (const client of clients) await tmux(docker, containerId, ['detach-client', '-t', client]);
}

/** The exit status the session's program recorded, once it has ended. */
export async function tmuxExitCode(
  docker: Docker,
  containerId: string,
  name: string,
): Promise<number | null> {
  const result = await execRun(docker, containerId, {
    command: ['cat', `${EXIT_DIR}/${tmuxSessionName(name)}.exit`],
    timeoutMs: 10_000,
  }).catch(() => null);
  const code = Number.parseInt(result?.stdout ?? '', 10);
  return Number.isInteger(code) ? code : null;
}
