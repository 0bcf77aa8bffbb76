import type Docker from 'dockerode';
import { Emulator } from './emulator.js';
import type { TerminalInfo } from './protocol/schemas.js';
import { SNAPSHOT_PREFIX, type TerminalSink } from './terminal-session.js';
import { killTmuxSession, listTmuxSessions, tmuxExitCode } from './tmux.js';
import { TmuxControl } from './tmux-control.js';
import { capturePane } from './tmux-screen.js';

/** One client's hold on a terminal: what the server's stream controls do to it. */
export interface TerminalAttachment {
  input(bytes: Buffer): void;
  resize(cols: number, rows: number): Promise<void>;
  pause(): void;
  resume(): void;
  /** Detach: this client goes, the program keeps running. */
  close(): void;
}

/** A terminal session, held by the agent (TerminalSession) or by tmux in the container. */
export interface Terminal {
  readonly containerId: string;
  readonly name: string;
  info(): TerminalInfo;
  /** Attaches a client at this size (the latest client's size wins). */
  open(sink: TerminalSink, size?: { cols: number; rows: number }): TerminalAttachment;
  kill(): Promise<void>;
}

interface Attachment {
  sink: TerminalSink;
  /** Output that arrived after the snapshot point, before the snapshot was sent. */
  pending: Buffer[] | null;
}

/** The agent's control client on the session and the screen it keeps from it. */
interface Link {
  control: TmuxControl;
  emulator: Emulator;
}

/**
 * A session tmux holds in the container (see tmux.ts). The agent follows it
 * with one control-mode client (tmux-control.ts), from its creation, or from
 * the agent's start, to its end: the client gets the program's own bytes, as
 * many as it wrote, in order. Every attachment gets those bytes, and the
 * agent's headless emulator is fed them (as for a session the agent holds), so
 * an attachment starts with the emulator's screen and scrollback, each line
 * once. When the agent starts following a session that already ran (after a
 * restart), the emulator starts from tmux's capture of the pane's history and
 * screen, taken in the same stream as the output, so nothing is missed or
 * shown twice there either.
 */
export class TmuxTerminal implements Terminal {
  private readonly attachments = new Set<Attachment>();
  private link: Promise<Link | null> | null = null;
  private readonly pausedFor = new Set<string>();
  private attachmentCount = 0;
  private ended = false;
  private exitCode: number | null = null;

  constructor(
    private readonly docker: Docker,
    private state: TerminalInfo,
    private readonly scrollback: number,
  ) {}

  get containerId(): string {
    return this.state.containerId;
  }

  get name(): string {
    return this.state.name;
  }

  /** The session ended (or this agent stopped following it). */
  get isEnded(): boolean {
    return this.ended;
  }

  update(state: TerminalInfo): void {
    this.state = { ...state, attachments: this.attachments.size };
  }

  info(): TerminalInfo {
    return { ...this.state, attachments: this.attachments.size };
  }

  /**
   * Starts following the session, if not yet (an agent that starts calls
   * this for every session it finds, so output from then on is kept exactly).
   */
  async connect(): Promise<void> {
    await this.linked();
  }

  private linked(): Promise<Link | null> {
    this.link ??= this.follow();
    return this.link;
  }

  private async follow(): Promise<Link | null> {
    let emulator: Emulator | null = null;
    // Until the capture's answer: output the capture may already hold.
    const early: Buffer[] = [];
    const control = await TmuxControl.attach(this.docker, this.containerId, this.name, (bytes) => {
      if (emulator === null) early.push(bytes);
      else this.output(emulator, bytes);
    }).catch(() => null);
    if (control === null) return this.finish();
    await control.resize(this.state.cols, this.state.rows);
    const capture = await capturePane(control, this.name, this.scrollback);
    if (capture === null) {
      control.close();
      return this.finish();
    }
    const started = new Emulator(capture.cols, capture.rows, this.scrollback);
    started.write(capture.replay);
    for (const bytes of early.slice(capture.outputsBefore)) this.output(started, bytes);
    emulator = started;
    if (this.pausedFor.size > 0) control.pause();
    const link = { control, emulator };
    void control.closed.then(() => this.lost(link));
    return link;
  }

  private output(emulator: Emulator, bytes: Buffer): void {
    emulator.write(bytes);
    for (const attachment of this.attachments) {
      if (attachment.pending === null) attachment.sink.data(bytes);
      else attachment.pending.push(bytes);
    }
  }

  /** The control client ended: the session ended, or someone detached the client (follow again). */
  private async lost(link: Link): Promise<void> {
    link.emulator.dispose();
    this.link = null;
    if (this.ended) return;
    const sessions = await listTmuxSessions(this.docker, this.containerId).catch(() => null);
    if (sessions?.some((session) => session.name === this.name)) {
      const again = await this.linked();
      // Attachments missed what came meanwhile: they start again from the screen.
      if (again !== null) for (const attachment of this.attachments) this.replay(attachment);
      return;
    }
    await this.finish();
  }

  private async finish(): Promise<null> {
    if (!this.ended) {
      this.ended = true;
      this.exitCode = await tmuxExitCode(this.docker, this.containerId, this.name);
      for (const attachment of this.attachments) attachment.sink.end(this.exitCode);
      this.attachments.clear();
    }
    return null;
  }

  /** Sends the emulator's state, then the output that came after it. */
  private replay(attachment: Attachment): void {
    attachment.pending = [];
    void this.linked().then(async (link) => {
      if (link === null || !this.attachments.has(attachment)) return;
      const snapshot = await link.emulator.snapshot();
      if (!this.attachments.has(attachment)) return;
      attachment.sink.data(Buffer.from(SNAPSHOT_PREFIX + snapshot, 'utf8'));
      for (const chunk of attachment.pending ?? []) attachment.sink.data(chunk);
      attachment.pending = null;
    });
  }

  open(sink: TerminalSink, size?: { cols: number; rows: number }): TerminalAttachment {
    if (this.ended) {
      sink.end(this.exitCode);
      return { input() {}, resize: async () => {}, pause() {}, resume() {}, close() {} };
    }
    const attachment: Attachment = { sink, pending: [] };
    this.attachments.add(attachment);
    // Input sent after a resize reaches the program after it (one command
    // stream): a `stty size` typed right after a resize sees the new size.
    if (size !== undefined) void this.resize(size.cols, size.rows);
    this.replay(attachment);
    const reason = `attachment-${++this.attachmentCount}`;
    return {
      input: (bytes) => {
        void this.linked().then((link) => link?.control.input(this.name, bytes));
      },
      resize: (cols, rows) => this.resize(cols, rows),
      pause: () => this.pause(reason),
      resume: () => this.resume(reason),
      close: () => {
        this.attachments.delete(attachment);
        this.resume(reason);
      },
    };
  }

  private async resize(cols: number, rows: number): Promise<void> {
    this.state = { ...this.state, cols, rows };
    const link = await this.linked();
    if (link === null) return;
    link.emulator.resize(cols, rows);
    await link.control.resize(cols, rows);
  }

  /** Stops reading the session's output (tmux keeps it meanwhile) until every reason is gone. */
  private pause(reason: string): void {
    this.pausedFor.add(reason);
    void this.link?.then((link) => link?.control.pause());
  }

  private resume(reason: string): void {
    this.pausedFor.delete(reason);
    if (this.pausedFor.size === 0) void this.link?.then((link) => link?.control.resume());
  }

  /** Stops following the session (as the agent's exit does); the session goes on. */
  async release(): Promise<void> {
    this.ended = true;
    const link = await this.link;
    link?.control.close();
    await link?.control.closed;
  }

  async kill(): Promise<void> {
    await killTmuxSession(this.docker, this.containerId, this.name);
    const link = await this.link;
    if (link !== null && link !== undefined) await link.control.closed;
    await this.finish();
  }
}
