import { EventEmitter } from 'node:events';
import type { AgentPeer } from '../../agent/peer.js';
import { CloseCodes, type HelloMessage } from '../../agent/protocol/messages.js';
import type { ContainerSummary } from '../../agent/protocol/schemas.js';
import { AppError } from '../../http/errors.js';
import { newId } from '../../lib/ids.js';

/** An agent connected to this server process. */
export interface ConnectedAgent {
  nodeId: string;
  peer: AgentPeer;
  hello: HelloMessage;
  /** The node's managed containers as last reported (hello, then inventory messages). */
  inventory: ContainerSummary[];
  connectedAt: Date;
}

export function nodeOffline(nodeId: string): AppError {
  return new AppError(
    'node_offline',
    'The node has no agent connected to this server; try again when it is back',
    { nodeId },
  );
}

/**
 * The agents connected to this process, by node. Events: `connected`
 * (ConnectedAgent), `disconnected` (nodeId), `inventory` (ConnectedAgent).
 * One connection per node: a second one replaces the first.
 */
export class AgentRegistry extends EventEmitter {
  /** This server process, as recorded beside the agents it holds (and on its job leases). */
  readonly processId = newId();
  private readonly agents = new Map<string, ConnectedAgent>();
  /** Reaches an agent another server process holds (set by the relay module). */
  remote: ((nodeId: string) => Promise<AgentPeer>) | null = null;

  add(nodeId: string, peer: AgentPeer, hello: HelloMessage): ConnectedAgent {
    const previous = this.agents.get(nodeId);
    const agent: ConnectedAgent = {
      nodeId,
      peer,
      hello,
      inventory: hello.inventory,
      connectedAt: new Date(),
    };
    this.agents.set(nodeId, agent);
    previous?.peer.close(CloseCodes.replaced, 'replaced by a newer connection');
    peer.on('inventory', (message: { containers: ContainerSummary[] }) => {
      if (this.agents.get(nodeId) !== agent) return;
      agent.inventory = message.containers;
      this.emit('inventory', agent);
    });
    peer.on('close', () => {
      if (this.agents.get(nodeId) !== agent) return;
      this.agents.delete(nodeId);
      this.emit('disconnected', nodeId);
    });
    this.emit('connected', agent);
    return agent;
  }

  get(nodeId: string): ConnectedAgent | undefined {
    const agent = this.agents.get(nodeId);
    return agent?.peer.connected ? agent : undefined;
  }

  /** The node's peer, or 503 `node_offline`. */
  peer(nodeId: string): AgentPeer {
    const agent = this.get(nodeId);
    if (agent === undefined) throw nodeOffline(nodeId);
    return agent.peer;
  }

  /**
   * The node's peer: the agent's own link when this process holds it, else a
   * relay to the process that does; 503 `node_offline` when none does.
   */
  async reach(nodeId: string): Promise<AgentPeer> {
    const agent = this.get(nodeId);
    if (agent !== undefined) return agent.peer;
    if (this.remote !== null) return this.remote(nodeId);
    throw nodeOffline(nodeId);
  }

  connectedNodeIds(): string[] {
    return [...this.agents.keys()];
  }

  /** Ends a node's connection: a rotated token or a deleted node must not keep working. */
  disconnect(nodeId: string, code: number = CloseCodes.unauthorized, reason = 'token revoked') {
    this.agents.get(nodeId)?.peer.close(code, reason);
  }

  closeAll(): void {
    for (const agent of this.agents.values()) agent.peer.close(1001, 'server shutting down');
  }
}
