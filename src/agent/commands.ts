import { randomUUID } from 'node:crypto';
import type Docker from 'dockerode';
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
  done: Promise<void>;
  cancelled: boolean;
}

export interface CommandTrackerOptions {
  /** Output kept per command; older bytes are dropped first. */
  outputLimit?: number;
  /** Finished commands remembered (the oldest are forgotten first). */
  keepFinished?: number;
}

/**
 * Background commands: started in a container, they run whatever the
 * connection to the server does, and are followed, listed and cancelled by id
 * while the agent runs.
 */
export class CommandTracker {
  private readonly commands = new Map<string, Tracked>();
  private readonly outputLimit: number;
  private readonly keepFinished: number;

  constructor(
    private readonly docker: Docker,
    options: CommandTrackerOptions = {},
  ) {
    this.outputLimit = options.outputLimit ?? 1024 * 1024;
    this.keepFinished = options.keepFinished ?? 100;
  }

  async start(params: CommandStartParams): Promise<CommandInfo> {
    const started = await startExec(this.docker, params.containerId, params);
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
    let finished: () => void = () => {};
    const tracked: Tracked = {
      info,
      chunks: [],
      retainedBytes: 0,
      listeners: new Set(),
      started,
      done: new Promise((resolve) => {
        finished = resolve;
      }),
      cancelled: false,
    };
    this.commands.set(info.id, tracked);
    const decoder = new FrameDecoder();
    started.stream.on('data', (chunk: Buffer) => {
      for (const frame of decoder.push(chunk)) this.append(tracked, frame);
    });
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      void this.finish(tracked).then(finished);
    };
    started.stream.once('end', end);
    started.stream.once('close', end);
    started.stream.once('error', end);
    return { ...info };
  }

  private append(tracked: Tracked, chunk: OutputChunk): void {
    tracked.info.outputBytes += chunk.data.length;
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

  private async finish(tracked: Tracked): Promise<void> {
    const exitCode = tracked.started === null ? null : await execExitCode(tracked.started.exec);
    const info = tracked.info;
    info.exitCode = exitCode;
    info.endedAt = new Date().toISOString();
    if (tracked.cancelled) info.state = 'cancelled';
    else if (exitCode === null) {
      info.state = 'failed';
      info.error = 'the engine reported no exit code (was the container stopped or removed?)';
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
    }
  }

  private find(id: string): Tracked {
    const tracked = this.commands.get(id);
    if (tracked === undefined) throw new AgentError('command_not_found', `no command ${id}`);
    return tracked;
  }

  get(id: string): CommandOutput {
    const tracked = this.find(id);
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
    if (tracked.info.state === 'running' && tracked.started !== null) {
      tracked.cancelled = true;
      const { marker } = tracked.started;
      await terminateMarked(this.docker, tracked.info.containerId, marker, tracked.done);
      await tracked.done;
    }
    return { ...tracked.info };
  }

  /**
   * The output kept so far, then every new chunk, then the end. Returns a
   * function that stops following (the command goes on).
   */
  follow(id: string, listener: CommandListener): { info: CommandInfo; stop(): void } {
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
}
