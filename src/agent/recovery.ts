import pLimit from 'p-limit';

/**
 * Containers recovered at once. Each costs two or three execs (tmux sessions,
 * command files); an engine given them all at once answers every one late.
 */
export const RECOVERY_CONCURRENCY = 4;

export interface RecoverySteps {
  /** The running containers labelled with the node. */
  list(nodeId: string): Promise<string[]>;
  /** Finds the terminal sessions and background commands one container holds. */
  recover(containerId: string): Promise<void>;
}

/**
 * What an agent finds again after it starts: the terminal sessions and
 * background commands that outlived its predecessor, in its own node's
 * containers. It runs after the hello (started by the welcome, which names
 * the node), a few containers at a time; a request about a container waits
 * for that container's recovery, so it never sees a half-recovered one.
 */
export class Recovery {
  private readonly limit = pLimit(RECOVERY_CONCURRENCY);
  /** Each container's recovery, under way or done. */
  private readonly containers = new Map<string, Promise<void>>();
  private listing: Promise<void> | null = null;
  private nodeId: string | null = null;

  constructor(private readonly steps: RecoverySteps) {}

  /**
   * Once per agent start (and node): recovers the node's running
   * containers. A listing that failed (the engine was down) is tried again
   * at the next welcome.
   */
  start(nodeId: string): void {
    if (this.listing !== null && this.nodeId === nodeId) return;
    this.nodeId = nodeId;
    const listing: Promise<void> = this.steps.list(nodeId).then(
      (ids) => this.adopt(ids),
      () => {
        if (this.listing === listing) this.listing = null;
      },
    );
    this.listing = listing;
  }

  /** Recovers these containers too (once each): those the server names as the node's. */
  adopt(containerIds: readonly string[]): void {
    for (const id of containerIds) {
      if (this.containers.has(id)) continue;
      const recovered = this.limit(() => this.steps.recover(id)).catch(() => {
        // Tried again if the container is named again.
        if (this.containers.get(id) === recovered) this.containers.delete(id);
      });
      this.containers.set(id, recovered);
    }
  }

  /** Resolves once the container's recovery, if it has one, is over. */
  async ready(containerId: string): Promise<void> {
    await this.listing;
    await this.containers.get(containerId);
  }

  /** Resolves once every recovery started so far is over. */
  async settled(): Promise<void> {
    await this.listing;
    await Promise.all(this.containers.values());
  }
}
