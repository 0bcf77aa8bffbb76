import type Docker from 'dockerode';
import type { TerminalInfo } from './protocol/schemas.js';
import { SNAPSHOT_PREFIX, type TerminalSink } from './terminal-session.js';
import {
  attachTmuxClient,
  killTmuxSession,
  listTmuxSessions,
  type TmuxClient,
  tmuxExitCode,
  tmuxScrollback,
} from './tmux.js';

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

/**
 * A session tmux holds in the container (see tmux.ts). Each attachment is a
 * tmux client of its own: tmux shares the session between them, sizes it to
 * the latest, and copes with a slow client by itself (it skips to the current
 * screen instead of holding the program back), so a paused attachment blocks
 * only its own TTY.
 */
export class TmuxTerminal implements Terminal {
  private readonly clients = new Set<Promise<TmuxClient | null>>();

  constructor(
    private readonly docker: Docker,
    private state: TerminalInfo,
  ) {}

  get containerId(): string {
    return this.state.containerId;
  }

  get name(): string {
    return this.state.name;
  }

  update(state: TerminalInfo): void {
    this.state = state;
  }

  info(): TerminalInfo {
    return { ...this.state };
  }

  open(sink: TerminalSink, size?: { cols: number; rows: number }): TerminalAttachment {
    const cols = size?.cols ?? this.state.cols;
    const rows = size?.rows ?? this.state.rows;
    this.state = { ...this.state, cols, rows, attachments: this.state.attachments + 1 };
    let closed = false;
    let ended = false;
    const end = (exitCode: number | null) => {
      if (ended) return;
      ended = true;
      sink.end(exitCode);
    };
    const connecting = (async () => {
      const scrollback = await tmuxScrollback(this.docker, this.containerId, this.name);
      const client = await attachTmuxClient(this.docker, this.containerId, this.name, cols, rows);
      if (closed) {
        await client.detach();
        return null;
      }
      sink.data(Buffer.concat([Buffer.from(SNAPSHOT_PREFIX, 'utf8'), scrollback]));
      client.stream.on('data', (chunk: Buffer) => sink.data(chunk));
      const finish = () => {
        if (closed) return;
        // The client ended without a detach from here: the session ended (or was killed).
        void this.ended().then(end);
      };
      client.stream.once('end', finish);
      client.stream.once('close', finish);
      client.stream.once('error', finish);
      return client;
    })().catch(() => {
      end(null);
      return null;
    });
    this.clients.add(connecting);
    const withClient = (act: (client: TmuxClient) => unknown) => {
      void connecting.then((client) => client !== null && act(client));
    };
    // Input sent after a resize reaches the program after it: a `stty size`
    // typed right after a resize must see the new size.
    let resized: Promise<unknown> = Promise.resolve();
    return {
      input: (bytes) => {
        void resized.then(() => withClient((client) => client.stream.write(bytes)));
      },
      resize: async (c, r) => {
        this.state = { ...this.state, cols: c, rows: r };
        const done = connecting.then((client) => client?.resize(c, r));
        resized = done.catch(() => {});
        await done;
      },
      pause: () => withClient((client) => client.stream.pause()),
      resume: () => withClient((client) => client.stream.resume()),
      close: () => {
        if (closed) return;
        closed = true;
        this.clients.delete(connecting);
        this.state = { ...this.state, attachments: Math.max(0, this.state.attachments - 1) };
        withClient((client) => client.detach());
      },
    };
  }

  /** The program's exit status when the session is gone; null while it still runs. */
  private async ended(): Promise<number | null> {
    const sessions = await listTmuxSessions(this.docker, this.containerId).catch(() => null);
    if (sessions?.some((session) => session.name === this.name)) return null;
    return tmuxExitCode(this.docker, this.containerId, this.name);
  }

  async kill(): Promise<void> {
    await killTmuxSession(this.docker, this.containerId, this.name);
    await Promise.all([...this.clients]);
  }
}
