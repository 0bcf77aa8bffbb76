import type Docker from 'dockerode';
import { execRun, execRunBytes, MARKER_VARIABLE } from './exec.js';

/**
 * Background commands keep their state in files inside the container, so a
 * new agent finds them again: `/tmp/.sparrow/commands/<id>/` holds `meta`
 * (the command's description, JSON), `marker` (its SPARROW_EXEC_ID value),
 * `out` and `err` (everything it wrote), `exit` (its exit status, written once
 * the output is complete) and `cancelled` (when it was cancelled).
 */
export const COMMANDS_DIR = '/tmp/.sparrow/commands';

export function commandDir(id: string): string {
  return `${COMMANDS_DIR}/${id}`;
}

/**
 * Runs `"$@"` with its output copied to the files (tee from two FIFOs) and on
 * to the exec's own stdout and stderr, then records the exit status. Without
 * mkfifo and tee, or a writable /tmp, it runs the command as it is: the agent
 * then knows it only while it runs.
 */
export const WRAPPER = [
  'd=$1; marker=$2; meta=$3; shift 3',
  'for p in /tmp/.sparrow /tmp/.sparrow/commands; do',
  '  [ -d "$p" ] || { mkdir "$p" 2>/dev/null && chmod 1777 "$p" 2>/dev/null; }',
  'done',
  'if ! command -v mkfifo >/dev/null 2>&1 || ! command -v tee >/dev/null 2>&1 ||',
  '  ! mkdir "$d" 2>/dev/null || ! mkfifo "$d/o" "$d/e" 2>/dev/null; then',
  '  exec "$@"',
  'fi',
  'printf "%s" "$marker" >"$d/marker"; printf "%s" "$meta" >"$d/meta"',
  'tee "$d/out" <"$d/o" &',
  'tee "$d/err" <"$d/e" >&2 &',
  '"$@" >"$d/o" 2>"$d/e" </dev/null',
  'code=$?',
  'wait',
  'rm -f "$d/o" "$d/e"',
  'echo "$code" >"$d/exit.tmp" && mv "$d/exit.tmp" "$d/exit"',
  'exit "$code"',
].join('\n');

/** Whether a process of the container carries `SPARROW_EXEC_ID=$1` (the command still runs). */
const ALIVE = [
  'alive() {',
  `  want="${MARKER_VARIABLE}=$1"`,
  '  for p in /proc/[0-9]*; do',
  '    [ "$p" = "/proc/$$" ] && continue',
  // A process may end while it is looked at: its vanished environ is no error to report.
  '    { tr "\\000" "\\n" <"$p/environ"; } 2>/dev/null | grep -qxF "$want" && return 0',
  '  done',
  '  return 1',
  '}',
].join('\n');

/** What a command's files say: `exited` with its status, `running`, or `lost` (no status, no process). */
export type FileState =
  | { state: 'exited'; exitCode: number; cancelled: boolean }
  | { state: 'running' }
  | { state: 'lost'; cancelled: boolean };

/** The status line of the scripts below: `<exit status or ->\t<cancelled 0|1>\t<alive 0|1>`. */
const STATUS = [
  'x=$(cat "$d/exit" 2>/dev/null); c=0; [ -f "$d/cancelled" ] && c=1; a=0',
  // No status yet and no process: the command may have ended (writing its status
  // just before its wrapper exits) while the processes were looked at: read it again.
  'if [ -z "$x" ]; then',
  '  if alive "$(cat "$d/marker" 2>/dev/null)"; then a=1; else x=$(cat "$d/exit" 2>/dev/null); fi',
  'fi',
  '[ -n "$x" ] || x=-',
].join('\n');

function parseStatus(exit: string, cancelled: string, alive: string): FileState {
  const code = Number.parseInt(exit, 10);
  if (Number.isInteger(code))
    return { state: 'exited', exitCode: code, cancelled: cancelled === '1' };
  if (alive === '1') return { state: 'running' };
  return { state: 'lost', cancelled: cancelled === '1' };
}

export interface FoundCommand {
  id: string;
  meta: unknown;
  file: FileState;
  outBytes: number;
  errBytes: number;
}

/** The commands whose files are in the container. */
export async function listCommandFiles(
  docker: Docker,
  containerId: string,
): Promise<FoundCommand[]> {
  const script = [
    ALIVE,
    `[ -d ${COMMANDS_DIR} ] || exit 0`,
    `for d in ${COMMANDS_DIR}/*; do`,
    '  [ -f "$d/meta" ] || continue',
    STATUS,
    '  o=$(wc -c <"$d/out" 2>/dev/null || echo 0); e=$(wc -c <"$d/err" 2>/dev/null || echo 0)',
    '  printf "%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\n" "$(basename "$d")" "$x" "$c" "$a" $o $e "$(cat "$d/meta")"',
    'done',
  ].join('\n');
  const result = await execRun(docker, containerId, {
    command: ['/bin/sh', '-c', script],
    timeoutMs: 30_000,
  });
  const found: FoundCommand[] = [];
  for (const line of result.stdout.split('\n')) {
    const [id, exit = '', cancelled = '', alive = '', out, err, meta] = line.split('\t');
    if (id === undefined || meta === undefined) continue;
    try {
      found.push({
        id,
        meta: JSON.parse(meta),
        file: parseStatus(exit, cancelled, alive),
        outBytes: Number(out) || 0,
        errBytes: Number(err) || 0,
      });
    } catch {}
  }
  return found;
}

export interface CommandRead {
  file: FileState;
  stdout: Buffer;
  stderr: Buffer;
}

/**
 * The command's state and its output from these offsets (at most `limit`
 * bytes of each, the first ones: the next read goes on from there). The
 * state is read first: once `exited`, the output read after it is complete.
 */
export async function readCommandFiles(
  docker: Docker,
  containerId: string,
  id: string,
  offsets: { stdout: number; stderr: number },
  limit: number,
): Promise<CommandRead> {
  const script = [
    ALIVE,
    'd=$1; oo=$2; eo=$3',
    STATUS,
    'printf "%s\\t%s\\t%s\\n" "$x" "$c" "$a"',
    '[ -f "$d/out" ] && tail -c +$((oo + 1)) "$d/out"',
    '[ -f "$d/err" ] && tail -c +$((eo + 1)) "$d/err" >&2',
    'exit 0',
  ].join('\n');
  const result = await execRunBytes(docker, containerId, {
    command: [
      '/bin/sh',
      '-c',
      script,
      'sparrow-command-read',
      commandDir(id),
      String(offsets.stdout),
      String(offsets.stderr),
    ],
    timeoutMs: 30_000,
    maxOutputBytes: limit + 1024,
  });
  const raw = result.stdout;
  const newline = raw.indexOf(10);
  const [exit = '', cancelled = '', alive = ''] = raw
    .subarray(0, newline === -1 ? raw.length : newline)
    .toString()
    .split('\t');
  return {
    file: parseStatus(exit, cancelled, alive),
    stdout: newline === -1 ? Buffer.alloc(0) : raw.subarray(newline + 1),
    stderr: result.stderr,
  };
}

/** Marks the command cancelled (before it is signalled), so a new agent reports it so. */
export async function markCancelled(docker: Docker, containerId: string, id: string) {
  await execRun(docker, containerId, {
    command: ['/bin/sh', '-c', '[ -d "$1" ] && : >"$1/cancelled"; exit 0', 'sh', commandDir(id)],
    timeoutMs: 10_000,
  });
}

export async function removeCommandFiles(docker: Docker, containerId: string, id: string) {
  await execRun(docker, containerId, {
    command: ['rm', '-rf', commandDir(id)],
    timeoutMs: 10_000,
  });
}
