import type Docker from 'dockerode';
import { AgentError } from './errors.js';
import type { TerminalCreateParams } from './protocol/methods.js';
import type { TerminalInfo } from './protocol/schemas.js';
import { DEFAULT_SHELL, TerminalSession } from './terminal-session.js';
import { createTmuxSession, detachTmuxClients, listTmuxSessions } from './tmux.js';
import { type Terminal, TmuxTerminal } from './tmux-terminal.js';

export interface TerminalManagerOptions {
  /** Hold sessions in tmux when the image has it (default true). */
  multiplexer?: boolean;
}

/**
 * Named terminal sessions per container. A session lives until its program
 * exits or it is killed; clients attaching and detaching do not end it, nor
 * does the agent's connection to the server dropping. In a container whose
 * image has tmux, tmux holds the session (tmux.ts), so it outlives the agent
 * too: the sessions are listed from tmux. Elsewhere the agent holds it
 * (TerminalSession) and it ends with the agent.
 */
export class TerminalManager {
  private readonly sessions = new Map<string, TerminalSession>();
  /** Sessions tmux holds, as last listed, per container. */
  private readonly held = new Map<string, Map<string, TmuxTerminal>>();
  /**
   * Names being created, by key, so two creates of one name cannot both
   * start a program; a second create waits for the first before refusing.
   */
  private readonly creating = new Map<string, Promise<unknown>>();
  /** Containers found without tmux: a container's image does not change. */
  private readonly withoutTmux = new Set<string>();
  private readonly multiplexer: boolean;

  constructor(
    private readonly docker: Docker,
    private readonly scrollback = 5000,
    options: TerminalManagerOptions = {},
  ) {
    this.multiplexer = options.multiplexer ?? true;
  }

  private static key(containerId: string, name: string): string {
    return `${containerId}\u0000${name}`;
  }

  /**
   * Lists the container's tmux sessions again (after an agent restart, they
   * are found here); false when the container has no tmux.
   */
  async refresh(containerId: string): Promise<boolean> {
    if (!this.multiplexer || this.withoutTmux.has(containerId)) return false;
    const listed = await listTmuxSessions(this.docker, containerId).catch(() => undefined);
    if (listed === undefined) {
      // The container is stopped or gone: its sessions with it.
      this.held.delete(containerId);
      return false;
    }
    if (listed === null) {
      this.withoutTmux.add(containerId);
      return false;
    }
    const previous = this.held.get(containerId) ?? new Map<string, TmuxTerminal>();
    const current = new Map<string, TmuxTerminal>();
    for (const info of listed) {
      // Attachments are this agent's clients, which the terminal counts (update keeps them).
      // One that ended is not the session listed now under its name (created again since).
      const known = previous.get(info.name);
      const terminal =
        known !== undefined && !known.isEnded
          ? known
          : new TmuxTerminal(this.docker, info, this.scrollback);
      terminal.update(info);
      current.set(info.name, terminal);
    }
    this.held.set(containerId, current);
    return true;
  }

  /**
   * After an agent start: lists the sessions of these containers, detaches
   * the TTY clients an agent of an earlier version left attached, and starts
   * following every session (TmuxTerminal.connect), so a reattach replays
   * its history and everything printed from now on, each line once.
   */
  async recover(containerIds: string[]): Promise<void> {
    await Promise.all(
      containerIds.map(async (containerId) => {
        const sessions = await listTmuxSessions(this.docker, containerId).catch(() => null);
        for (const session of sessions ?? []) {
          if (session.attachments === 0) continue;
          await detachTmuxClients(this.docker, containerId, session.name).catch(() => {});
        }
        await this.refresh(containerId);
        const held = [...(this.held.get(containerId)?.values() ?? [])];
        await Promise.all(held.map((terminal) => terminal.connect()));
      }),
    );
  }

  /**
   * Stops following the tmux sessions (as the agent's exit does) and ends
   * the sessions the agent holds; tmux sessions go on.
   */
  async close(): Promise<void> {
    const held = [...this.held.values()].flatMap((terminals) => [...terminals.values()]);
    this.held.clear();
    await Promise.all([
      ...held.map((terminal) => terminal.release()),
      ...[...this.sessions.values()].map((session) => session.kill()),
    ]);
  }

  /**
   * Creates a session. A name that exists, or is being created, is refused
   * with `terminal_exists`, and only once that creation has ended: a caller
   * told so can attach to the name at once (two browser tabs opening one new
   * session at the same moment both connect).
   */
  async create(params: TerminalCreateParams): Promise<TerminalInfo> {
    const key = TerminalManager.key(params.containerId, params.name);
    for (let inFlight = this.creating.get(key); inFlight !== undefined; ) {
      const created = await inFlight.then(
        () => true,
        () => false,
      );
      if (created)
        throw new AgentError('terminal_exists', `terminal ${params.name} already exists`);
      inFlight = this.creating.get(key);
    }
    if (this.sessions.has(key)) {
      throw new AgentError('terminal_exists', `terminal ${params.name} already exists`);
    }
    const creation = this.start(key, params);
    this.creating.set(key, creation);
    try {
      return await creation;
    } finally {
      this.creating.delete(key);
    }
  }

  private async start(key: string, params: TerminalCreateParams): Promise<TerminalInfo> {
    // A session under another user would be in that user's tmux server: the agent holds those.
    if (params.user === undefined && (await this.refresh(params.containerId))) {
      if (this.held.get(params.containerId)?.has(params.name)) {
        throw new AgentError('terminal_exists', `terminal ${params.name} already exists`);
      }
      const info = await createTmuxSession(
        this.docker,
        params,
        params.command ?? DEFAULT_SHELL,
        this.scrollback,
      );
      const held = this.held.get(params.containerId) ?? new Map<string, TmuxTerminal>();
      const terminal =
        held.get(params.name) ?? new TmuxTerminal(this.docker, info, this.scrollback);
      held.set(params.name, terminal);
      this.held.set(params.containerId, held);
      // Followed from its first output on: every byte reaches the screen kept for a reattach.
      await terminal.connect();
      return info;
    }
    const session = await TerminalSession.start(this.docker, params, {
      scrollback: this.scrollback,
      onExit: (ended) => {
        if (this.sessions.get(key) === ended) this.sessions.delete(key);
      },
    });
    if (session.running) this.sessions.set(key, session);
    return session.info();
  }

  /** A session the agent holds (not one in tmux: see find). */
  get(containerId: string, name: string): TerminalSession {
    const session = this.sessions.get(TerminalManager.key(containerId, name));
    if (session === undefined) {
      throw new AgentError('terminal_not_found', `no terminal ${name} in container ${containerId}`);
    }
    return session;
  }

  /** A session by name, held by the agent or by tmux (listed again from the container). */
  async find(containerId: string, name: string): Promise<Terminal> {
    const own = this.sessions.get(TerminalManager.key(containerId, name));
    if (own !== undefined) return own;
    // Listed a moment ago (terminal.list before an attach): no second exec. One
    // that ended since ends its attachment at once.
    const known = this.held.get(containerId)?.get(name);
    if (known !== undefined) return known;
    await this.refresh(containerId);
    const held = this.held.get(containerId)?.get(name);
    if (held === undefined) {
      throw new AgentError('terminal_not_found', `no terminal ${name} in container ${containerId}`);
    }
    return held;
  }

  /** What is known now, without asking the containers (see listFresh). */
  list(containerId?: string): TerminalInfo[] {
    const held = [...this.held.entries()]
      .filter(([id]) => containerId === undefined || id === containerId)
      .flatMap(([, terminals]) => [...terminals.values()]);
    return [...this.sessions.values(), ...held]
      .filter((session) => containerId === undefined || session.containerId === containerId)
      .map((session) => session.info())
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async listFresh(containerId: string): Promise<TerminalInfo[]> {
    await this.refresh(containerId);
    return this.list(containerId);
  }

  async kill(containerId: string, name: string): Promise<void> {
    const terminal = await this.find(containerId, name);
    await terminal.kill();
    this.held.get(containerId)?.delete(name);
  }
}
