import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { AgentError, engineStatus, fromEngineError, isStateConflict } from './errors.js';
import { FrameDecoder } from './frames.js';
import type { Channel } from './protocol/messages.js';
import type { Env, ExecResult } from './protocol/schemas.js';

/**
 * Every process the agent starts in a container carries this variable with a
 * value of its own, and so do its descendants: that is how a command, a
 * time-out or a terminal kill finds every process to signal, with no pid file
 * and whatever the image's shell can do.
 */
export const MARKER_VARIABLE = 'SPARROW_EXEC_ID';

export interface ExecSpec {
  command: string[];
  env?: Env;
  workdir?: string;
  user?: string;
  tty?: boolean;
  /** Attach standard input (written through the returned stream). */
  stdin?: boolean;
  /** The MARKER_VARIABLE value, when the caller needs it before the start. */
  marker?: string;
}

export interface StartedExec {
  exec: Docker.Exec;
  stream: Duplex;
  marker: string;
}

export function envList(env: Env | undefined): string[] {
  return Object.entries(env ?? {}).map(([name, value]) => `${name}=${value}`);
}

export async function startExec(
  docker: Docker,
  containerId: string,
  spec: ExecSpec,
): Promise<StartedExec> {
  const marker = spec.marker ?? randomUUID();
  const tty = spec.tty ?? false;
  const stdin = spec.stdin ?? false;
  try {
    const exec = await docker.getContainer(containerId).exec({
      Cmd: spec.command,
      Env: [...envList(spec.env), `${MARKER_VARIABLE}=${marker}`],
      WorkingDir: spec.workdir,
      User: spec.user,
      Tty: tty,
      AttachStdin: stdin,
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin, Tty: tty });
    return { exec, stream, marker };
  } catch (error) {
    if (isStateConflict(error)) {
      throw new AgentError('not_running', `container ${containerId} is not running`);
    }
    throw fromEngineError(error, `container ${containerId}`);
  }
}

/**
 * The exit code once the engine reports the exec finished. The output stream
 * can end a moment before the engine records the code, so ask a few times.
 */
export async function execExitCode(exec: Docker.Exec): Promise<number | null> {
  for (let attempt = 0; attempt < 50; attempt++) {
    try {
      const info = await exec.inspect();
      if (!info.Running) return typeof info.ExitCode === 'number' ? info.ExitCode : null;
    } catch {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(10 * 2 ** attempt, 200)));
  }
  return null;
}

/**
 * Exec resize. Podman answers 201 where Docker answers 200; dockerode calls
 * anything it does not expect an error, although the resize happened.
 */
export async function resizeExec(exec: Docker.Exec, cols: number, rows: number): Promise<void> {
  try {
    await exec.resize({ h: rows, w: cols });
  } catch (error) {
    if (engineStatus(error) === 201) return;
    throw fromEngineError(error, `exec ${exec.id}`);
  }
}

const KILL_SCRIPT = [
  'marker="$1"; signal="$2"; self=$$',
  'cd /proc || exit 1',
  'for pid in [0-9]*; do',
  '  [ "$pid" = "$self" ] && continue',
  '  if tr "\\000" "\\n" < "$pid/environ" 2>/dev/null | grep -qxF "$marker"; then',
  '    kill -"$signal" "$pid" 2>/dev/null',
  '  fi',
  'done',
  'exit 0',
].join('\n');

/** Signals every process of the container carrying `marker` (see MARKER_VARIABLE). */
export async function signalMarked(
  docker: Docker,
  containerId: string,
  marker: string,
  signal: 'TERM' | 'KILL' | 'HUP' | 'INT',
): Promise<void> {
  const started = await startExec(docker, containerId, {
    command: ['/bin/sh', '-c', KILL_SCRIPT, 'sparrow-kill', `${MARKER_VARIABLE}=${marker}`, signal],
    user: '0',
  });
  started.stream.resume();
  await new Promise<void>((resolve) => {
    started.stream.once('close', resolve);
    started.stream.once('end', resolve);
    started.stream.once('error', () => resolve());
  });
}

/**
 * `signal` (TERM; HUP for a terminal, whose shell ignores TERM), then KILL
 * after `graceMs` unless `finished` settles first. Errors are swallowed: the
 * container may be gone, which ends the processes too.
 */
export async function terminateMarked(
  docker: Docker,
  containerId: string,
  marker: string,
  finished: Promise<unknown>,
  graceMs = 3000,
  signal: 'TERM' | 'HUP' = 'TERM',
): Promise<void> {
  await signalMarked(docker, containerId, marker, signal).catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const expired = await Promise.race([
    finished.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (expired) await signalMarked(docker, containerId, marker, 'KILL').catch(() => {});
}

export interface CappedOutput {
  stdout: Buffer[];
  stderr: Buffer[];
  truncated: boolean;
}

/** Keeps the first `limit` bytes of each channel. */
export function capOutput(
  limit: number,
): CappedOutput & { add(channel: Channel, data: Buffer): void } {
  const sizes = { stdout: 0, stderr: 0 };
  const output = {
    stdout: [] as Buffer[],
    stderr: [] as Buffer[],
    truncated: false,
    add(channel: Channel, data: Buffer) {
      const room = limit - sizes[channel];
      if (room <= 0) {
        if (data.length > 0) output.truncated = true;
        return;
      }
      const kept = data.length > room ? data.subarray(0, room) : data;
      if (kept.length < data.length) output.truncated = true;
      output[channel].push(kept);
      sizes[channel] += kept.length;
    },
  };
  return output;
}

export interface RunOptions extends Omit<ExecSpec, 'tty' | 'stdin'> {
  stdin?: Buffer;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

export const DEFAULT_MAX_OUTPUT = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;

/** Runs a command to its end: exit code and output, capped and timed out. */
export async function execRun(
  docker: Docker,
  containerId: string,
  options: RunOptions,
): Promise<ExecResult> {
  const result = await execRunBytes(docker, containerId, options);
  return {
    ...result,
    stdout: result.stdout.toString('utf8'),
    stderr: result.stderr.toString('utf8'),
  };
}

export interface ExecBytes extends Omit<ExecResult, 'stdout' | 'stderr'> {
  stdout: Buffer;
  stderr: Buffer;
}

/** execRun with the output as bytes. */
export async function execRunBytes(
  docker: Docker,
  containerId: string,
  options: RunOptions,
): Promise<ExecBytes> {
  const began = Date.now();
  const started = await startExec(docker, containerId, {
    ...options,
    stdin: options.stdin !== undefined,
  });
  const output = capOutput(options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
  const decoder = new FrameDecoder();
  started.stream.on('data', (chunk: Buffer) => {
    for (const frame of decoder.push(chunk)) output.add(frame.channel, frame.data);
  });
  const ended = new Promise<void>((resolve) => {
    started.stream.once('end', resolve);
    started.stream.once('close', resolve);
    started.stream.once('error', () => resolve());
  });
  if (options.stdin !== undefined) started.stream.end(options.stdin);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void terminateMarked(docker, containerId, started.marker, ended).then(() =>
      // Processes that hold the stream open past KILL (none should) end it here.
      setTimeout(() => started.stream.destroy(), 5000).unref(),
    );
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  await ended;
  clearTimeout(timer);
  const exitCode = await execExitCode(started.exec);
  return {
    exitCode,
    stdout: Buffer.concat(output.stdout),
    stderr: Buffer.concat(output.stderr),
    truncated: output.truncated,
    timedOut,
    durationMs: Date.now() - began,
  };
}
