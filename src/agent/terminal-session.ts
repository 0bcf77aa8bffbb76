import type Docker from 'dockerode';
import { Emulator } from './emulator.js';
import { execExitCode, resizeExec, type StartedExec, startExec, terminateMarked } from './exec.js';
import type { TerminalCreateParams } from './protocol/methods.js';
import type { TerminalInfo } from './protocol/schemas.js';
import type { Terminal, TerminalAttachment } from './tmux-terminal.js';

/** A login shell: bash when the image has it, else sh. */
export const DEFAULT_SHELL = [
  '/bin/sh',
  '-c',
  'if command -v bash >/dev/null 2>&1; then exec bash -l; else exec sh -l; fi',
];

/**
 * Full reset before the replayed screen, so a client that reattaches in the
 * same terminal starts clean instead of drawing over what it showed.
 */
export const SNAPSHOT_PREFIX = '\x1bc';

/** Where an attached client's bytes go. */
export interface TerminalSink {
  data(bytes: Buffer): void;
  end(exitCode: number | null): void;
}

interface Attachment {
  sink: TerminalSink;
  /** Output that arrived after the snapshot point, before the snapshot was sent. */
  pending: Buffer[] | null;
}

export interface TerminalSessionOptions {
  scrollback: number;
  onExit(session: TerminalSession): void;
}

/**
 * One persistent terminal: a program under a TTY exec, and a headless
 * terminal emulator fed with what it prints (of a flood, the tail: see
 * Emulator). Clients come and go; the emulator's serialized state (screen,
 * scrollback, modes, cursor) is what a client gets first when it attaches,
 * so full-screen programs come back intact. Bytes stay bytes: clients see
 * exactly what the program wrote, every byte of it.
 */
export class TerminalSession implements Terminal {
  private attachmentCount = 0;
  private readonly emulator: Emulator;
  private readonly attachments = new Set<Attachment>();
  private exitCode: number | null = null;
  private readonly pausedFor = new Set<string>();
  private ended = false;
  readonly finished: Promise<void>;
  readonly createdAt = new Date().toISOString();

  private constructor(
    private readonly docker: Docker,
    readonly containerId: string,
    readonly name: string,
    readonly command: string[],
    private cols: number,
    private rows: number,
    private readonly started: StartedExec,
    options: TerminalSessionOptions,
  ) {
    this.emulator = new Emulator(cols, rows, options.scrollback);
    started.stream.on('data', (chunk: Buffer) => this.output(chunk));
    this.finished = new Promise((resolve) => {
      const end = () => {
        if (this.ended) return;
        this.ended = true;
        void execExitCode(started.exec).then((code) => {
          this.exitCode = code;
          for (const attachment of this.attachments) attachment.sink.end(code);
          this.attachments.clear();
          this.emulator.dispose();
          options.onExit(this);
          resolve();
        });
      };
      started.stream.once('end', end);
      started.stream.once('close', end);
      started.stream.once('error', end);
    });
  }

  static async start(
    docker: Docker,
    params: TerminalCreateParams,
    options: TerminalSessionOptions,
  ): Promise<TerminalSession> {
    const command = params.command ?? DEFAULT_SHELL;
    const cols = params.cols ?? 80;
    const rows = params.rows ?? 24;
    const started = await startExec(docker, params.containerId, {
      command,
      env: { TERM: 'xterm-256color', ...params.env },
      workdir: params.workdir,
      user: params.user,
      tty: true,
      stdin: true,
    });
    const session = new TerminalSession(
      docker,
      params.containerId,
      params.name,
      command,
      cols,
      rows,
      started,
      options,
    );
    await resizeExec(started.exec, cols, rows).catch(() => {});
    return session;
  }

  private output(chunk: Buffer): void {
    this.emulator.write(chunk);
    for (const attachment of this.attachments) {
      if (attachment.pending === null) attachment.sink.data(chunk);
      else attachment.pending.push(chunk);
    }
  }

  get running(): boolean {
    return !this.ended;
  }

  info(): TerminalInfo {
    return {
      name: this.name,
      containerId: this.containerId,
      command: this.command,
      cols: this.cols,
      rows: this.rows,
      createdAt: this.createdAt,
      attachments: this.attachments.size,
    };
  }

  /**
   * Sends the serialized screen and scrollback, then live output. The
   * snapshot is taken once the emulator has parsed every byte received before
   * this call; bytes received meanwhile follow it, so nothing is shown twice
   * or lost. Returns the function that detaches.
   */
  attach(sink: TerminalSink): () => void {
    if (this.ended) {
      sink.end(this.exitCode);
      return () => {};
    }
    const attachment: Attachment = { sink, pending: [] };
    this.attachments.add(attachment);
    void this.emulator.snapshot().then((snapshot) => {
      if (!this.attachments.has(attachment)) return;
      sink.data(Buffer.from(SNAPSHOT_PREFIX + snapshot, 'utf8'));
      for (const chunk of attachment.pending ?? []) sink.data(chunk);
      attachment.pending = null;
    });
    return () => {
      this.attachments.delete(attachment);
    };
  }

  /** attach() with the stream controls of one client; its pauses are its own. */
  open(sink: TerminalSink, size?: { cols: number; rows: number }): TerminalAttachment {
    if (size !== undefined) void this.resize(size.cols, size.rows).catch(() => {});
    const detach = this.attach(sink);
    const reason = `attachment-${++this.attachmentCount}`;
    return {
      input: (bytes) => this.input(bytes),
      resize: (cols, rows) => this.resize(cols, rows),
      close: () => {
        detach();
        this.resume(reason);
      },
      pause: () => this.pause(reason),
      resume: () => this.resume(reason),
    };
  }

  input(bytes: Buffer): void {
    if (!this.ended) this.started.stream.write(bytes);
  }

  async resize(cols: number, rows: number): Promise<void> {
    if (this.ended || (cols === this.cols && rows === this.rows)) return;
    this.cols = cols;
    this.rows = rows;
    this.emulator.resize(cols, rows);
    await resizeExec(this.started.exec, cols, rows);
  }

  /** Stops reading the program's output (it blocks on a full TTY) until every reason is gone. */
  pause(reason: string): void {
    this.pausedFor.add(reason);
    this.started.stream.pause();
  }

  resume(reason: string): void {
    this.pausedFor.delete(reason);
    if (this.pausedFor.size === 0) this.started.stream.resume();
  }

  /** Ends the program (HUP, as when a terminal closes, then KILL) and waits for the end. */
  async kill(): Promise<void> {
    if (this.ended) return;
    const { marker } = this.started;
    await terminateMarked(this.docker, this.containerId, marker, this.finished, 2000, 'HUP');
    const timer = setTimeout(() => this.started.stream.destroy(), 3000);
    await this.finished;
    clearTimeout(timer);
  }
}
