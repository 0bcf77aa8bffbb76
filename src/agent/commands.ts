import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
import {
  commandDir,
  type FileState,
  type FoundCommand,
  listCommandFiles,
  markCancelled,
  readCommandFiles,
  removeCommandFiles,
  WRAPPER,
} from './command-files.js';
import { AgentError } from './errors.js';
import { execExitCode, type StartedExec, startExec, terminateMarked } from './exec.js';
import { FrameDecoder } from './frames.js';
import type { Channel } from './protocol/messages.js';
import type { CommandStartParams } from './protocol/methods.js';
import type { CommandInfo, CommandOutput } from './protocol/schemas.js';

export interface OutputChunk {
  channel: Channel;
  data: Buffer;
}

export interface CommandListener {
  onData(chunk: OutputChunk): void;
  onEnd(info: CommandInfo): void;
}

interface Tracked {
  info: CommandInfo;
  chunks: OutputChunk[];
  retainedBytes: number;
  listeners: Set<CommandListener>;
  started: StartedExec | null;
  marker: string | null;
  done: Promise<void>;
  finished: () => void;
  cancelled: boolean;
  /** Found in the container's files after an agent restart: where its output was read to. */
  recovered: { stdout: number; stderr: number; loaded: boolean; counted: boolean } | null;
  /** The read of its files under way: reads run one after another, each from where the last ended. */
  reading: Promise<unknown>;
}

export interface CommandTrackerOptions {
  /** Output kept per command; older bytes are dropped first. */
  outputLimit?: number;
  /** Finished commands remembered (the oldest are forgotten first). */
  keepFinished?: number;
  /** How often a command found after a restart is read again while it runs. */
  pollMs?: number;
}

const LOST =
  'the command ended without recording its exit status (was the container stopped or removed?)';

/**
 * Background commands: started in a container, they run whatever the
 * connection to the server does, and are followed, listed and cancelled by
 * id. Their output and exit status also go to files in the container
 * (command-files.ts), from which an agent that starts finds them again.
 */
export class CommandTracker {
  private readonly commands = new Map<string, Tracked>();
  private readonly outputLimit: number;
  private readonly keepFinished: number;
  private readonly pollMs: number;

  constructor(
    private readonly docker: Docker,
    options: CommandTrackerOptions = {},
  ) {
    this.outputLimit = options.outputLimit ?? 1024 * 1024;
    this.keepFinished = options.keepFinished ?? 100;
    this.pollMs = options.pollMs ?? 1000;
  }

  private track(info: CommandInfo, started: StartedExec | null, marker: string | null): Tracked {
    let finished: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finished = resolve;
    });
    const tracked: Tracked = {
      info,
      chunks: [],
      retainedBytes: 0,
      listeners: new Set(),
      started,
      marker,
      done,
      finished,
      cancelled: false,
      recovered: null,
      reading: Promise.resolve(),
    };
    this.commands.set(info.id, tracked);
    return tracked;
  }

  async start(params: CommandStartParams): Promise<CommandInfo> {
    const info: CommandInfo = {
      id: randomUUID(),
      containerId: params.containerId,
      command: params.command,
      state: 'running',
      exitCode: null,
      error: null,
      startedAt: new Date().toISOString(),
      endedAt: null,
      outputBytes: 0,
      droppedBytes: 0,
    };
    const marker = randomUUID();
    const meta = JSON.stringify({ command: info.command, startedAt: info.startedAt, marker });
    const started = await startExec(this.docker, params.containerId, {
      ...params,
      command: [
        '/bin/sh',
        '-c',
        WRAPPER,
        'sparrow-command',
        commandDir(info.id),
        marker,
        meta,
        ...params.command,
      ],
      marker,
    });
    const tracked = this.track(info, started, marker);
    const decoder = new FrameDecoder();
    started.stream.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) this.append(tracked, frame);
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      void this.finish(tracked).then(tracked.finished);
    };
    started.stream.once('end', end);
    started.stream.once('close', end);
    started.stream.once('error', end);
    return { ...info };
  }

  /** Keeps the chunk and passes it on; `counted`: outputBytes already includes it. */
  private append(tracked: Tracked, chunk: OutputChunk, counted = false): void {
    if (!counted) tracked.info.outputBytes += chunk.data.length;
    tracked.chunks.push(chunk);
    tracked.retainedBytes += chunk.data.length;
    while (tracked.retainedBytes > this.outputLimit && tracked.chunks.length > 0) {
      const oldest = tracked.chunks.shift();
      const size = oldest?.data.length ?? 0;
      tracked.retainedBytes -= size;
      tracked.info.droppedBytes += size;
    }
    for (const listener of tracked.listeners) listener.onData(chunk);
  }

  private async finish(tracked: Tracked, file?: FileState): Promise<void> {
    const exitCode =
      file !== undefined
        ? file.state === 'exited'
          ? file.exitCode
          : null
        : tracked.started === null
          ? null
          : await execExitCode(tracked.started.exec);
    const info = tracked.info;
    info.exitCode = exitCode;
    info.endedAt ??= new Date().toISOString();
    const cancelled =
      tracked.cancelled || (file !== undefined && 'cancelled' in file && file.cancelled);
    if (cancelled) info.state = 'cancelled';
    else if (exitCode === null) {
      info.state = 'failed';
      info.error =
        file === undefined
          ? 'the engine reported no exit code (was the container stopped or removed?)'
          : LOST;
    } else info.state = 'exited';
    for (const listener of tracked.listeners) listener.onEnd({ ...info });
    tracked.listeners.clear();
    tracked.started = null;
    this.forgetOldFinished();
  }

  private forgetOldFinished(): void {
    const finished = [...this.commands.values()].filter((t) => t.info.state !== 'running');
    for (const old of finished.slice(0, Math.max(0, finished.length - this.keepFinished))) {
      this.commands.delete(old.info.id);
      void removeCommandFiles(this.docker, old.info.containerId, old.info.id).catch(() => {});
    }
  }

  private find(id: string): Tracked {
    const tracked = this.commands.get(id);
    if (tracked === undefined) throw new AgentError('command_not_found', `no command ${id}`);
    return tracked;
  }

  /**
   * Reads what the files of a command found after a restart hold past the
   * offsets: the first time, its last `outputLimit` bytes per channel.
   */
  private readRecovered(tracked: Tracked): Promise<FileState | null> {
    // A get() and the poll may ask at once: two reads from the same offsets
    // would append the same bytes twice and move the offsets past the end.
    const read = tracked.reading.then(() => this.readRecoveredNow(tracked));
    tracked.reading = read.catch(() => {});
    return read;
  }

  private async readRecoveredNow(tracked: Tracked): Promise<FileState | null> {
    const at = tracked.recovered;
    if (at === null) return null;
    const read = await readCommandFiles(
      this.docker,
      tracked.info.containerId,
      tracked.info.id,
      at,
      8 * 1024 * 1024,
    );
    at.loaded = true;
    for (const channel of ['stdout', 'stderr'] as const) {
      const data = read[channel];
      if (data.length === 0) continue;
      at[channel] += data.length;
      this.append(tracked, { channel, data }, at.counted);
    }
    return read.file;
  }

  async get(id: string): Promise<CommandOutput> {
    const tracked = this.find(id);
    if (tracked.recovered?.loaded === false) await this.readRecovered(tracked);
    const text = (channel: Channel) =>
      Buffer.concat(
        tracked.chunks.filter((c) => c.channel === channel).map((c) => c.data),
      ).toString('utf8');
    return { ...tracked.info, stdout: text('stdout'), stderr: text('stderr') };
  }

  list(containerId?: string): CommandInfo[] {
    return [...this.commands.values()]
      .filter((t) => containerId === undefined || t.info.containerId === containerId)
      .map((t) => ({ ...t.info }));
  }

  /** Signals the command's processes (TERM, then KILL) and waits for its end. */
  async cancel(id: string): Promise<CommandInfo> {
    const tracked = this.find(id);
    if (tracked.info.state === 'running' && tracked.marker !== null) {
      tracked.cancelled = true;
      const { containerId } = tracked.info;
      await markCancelled(this.docker, containerId, id).catch(() => {});
      await terminateMarked(this.docker, containerId, tracked.marker, tracked.done);
      await tracked.done;
    }
    return { ...tracked.info };
  }

  /**
   * The output kept so far, then every new chunk, then the end. Returns a
   * function that stops following (the command goes on).
   */
  follow(id: string, listener: CommandListener): { info: CommandInfo; stop(): void } {
    // The output of a command found after a restart is read by get(), which comes first.
    const tracked = this.find(id);
    for (const chunk of tracked.chunks) listener.onData(chunk);
    if (tracked.info.state !== 'running') listener.onEnd({ ...tracked.info });
    else tracked.listeners.add(listener);
    return { info: { ...tracked.info }, stop: () => tracked.listeners.delete(listener) };
  }

  /** The container is about to be removed: its running commands end as cancelled. */
  abandon(containerId: string): void {
    for (const tracked of this.commands.values()) {
      if (tracked.info.containerId === containerId && tracked.info.state === 'running') {
        tracked.cancelled = true;
      }
    }
  }

  /**
   * After an agent start: takes up the commands whose files are in these
   * containers. Finished ones are read when asked for; running ones are read
   * every `pollMs` until their exit status appears.
   */
  async recover(containerIds: string[]): Promise<void> {
    const found = await Promise.all(
      containerIds.map(async (containerId) => ({
        containerId,
        commands: await listCommandFiles(this.docker, containerId).catch(() => []),
      })),
    );
    for (const { containerId, commands } of found) {
      for (const command of commands) {
        if (!this.commands.has(command.id)) this.adopt(containerId, command);
      }
    }
  }

  private adopt(containerId: string, found: FoundCommand): void {
    const meta = found.meta as { command?: unknown; startedAt?: unknown; marker?: unknown };
    // Only the last outputLimit bytes of each channel are read; the rest counts as dropped.
    const skipped = {
      stdout: Math.max(0, found.outBytes - this.outputLimit),
      stderr: Math.max(0, found.errBytes - this.outputLimit),
    };
    const tracked = this.track(
      {
        id: found.id,
        containerId,
        command: Array.isArray(meta.command) ? meta.command.map(String) : [],
        state: 'running',
        exitCode: null,
        error: null,
        startedAt: typeof meta.startedAt === 'string' ? meta.startedAt : new Date(0).toISOString(),
        endedAt: null,
        outputBytes: skipped.stdout + skipped.stderr,
        droppedBytes: skipped.stdout + skipped.stderr,
      },
      null,
      typeof meta.marker === 'string' ? meta.marker : null,
    );
    if (found.file.state === 'running') {
      tracked.recovered = { ...skipped, loaded: false, counted: false };
      void this.poll(tracked);
    } else {
      // Counted now; its output is read when asked for.
      tracked.info.outputBytes = found.outBytes + found.errBytes;
      tracked.recovered = { ...skipped, loaded: false, counted: true };
      void this.finish(tracked, found.file).then(tracked.finished);
    }
  }

  private async poll(tracked: Tracked): Promise<void> {
    for (;;) {
      const file = await this.readRecovered(tracked).catch((error: unknown) =>
        // A container stopped or removed ends its commands; other failures are tried again.
        error instanceof AgentError && ['not_found', 'not_running'].includes(error.code)
          ? ({ state: 'lost', cancelled: tracked.cancelled } as const)
          : undefined,
      );
      if (file === null) return;
      if (file !== undefined && file.state !== 'running') {
        await this.finish(tracked, file);
        tracked.finished();
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.pollMs).unref());
    }
  }
}
