import type Docker from 'dockerode';
import { AgentError } from './errors.js';
import type { TerminalCreateParams } from './protocol/methods.js';
import type { TerminalInfo } from './protocol/schemas.js';
import { TerminalSession } from './terminal-session.js';

/**
 * Named terminal sessions per container. A session lives until its program
 * exits or it is killed; clients attaching and detaching do not end it, nor
 * does the agent's connection to the server dropping.
 */
export class TerminalManager {
  private readonly sessions = new Map<string, TerminalSession>();
  /** Names being created, so two creates of one name cannot both start a program. */
  private readonly creating = new Set<string>();

  constructor(
    private readonly docker: Docker,
    private readonly scrollback = 5000,
  ) {}

  private static key(containerId: string, name: string): string {
    return `${containerId}\u0000${name}`;
  }

  async create(params: TerminalCreateParams): Promise<TerminalInfo> {
    const key = TerminalManager.key(params.containerId, params.name);
    if (this.sessions.has(key) || this.creating.has(key)) {
      throw new AgentError('terminal_exists', `terminal ${params.name} already exists`);
    }
    this.creating.add(key);
    try {
      const session = await TerminalSession.start(this.docker, params, {
        scrollback: this.scrollback,
        onExit: (ended) => {
          if (this.sessions.get(key) === ended) this.sessions.delete(key);
        },
      });
      if (session.running) this.sessions.set(key, session);
      return session.info();
    } finally {
      this.creating.delete(key);
    }
  }

  get(containerId: string, name: string): TerminalSession {
    const session = this.sessions.get(TerminalManager.key(containerId, name));
    if (session === undefined) {
      throw new AgentError('terminal_not_found', `no terminal ${name} in container ${containerId}`);
    }
    return session;
  }

  list(containerId?: string): TerminalInfo[] {
    return [...this.sessions.values()]
      .filter((session) => containerId === undefined || session.containerId === containerId)
      .map((session) => session.info())
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async kill(containerId: string, name: string): Promise<void> {
    await this.get(containerId, name).kill();
  }
}
