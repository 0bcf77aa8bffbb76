import WebSocket from 'ws';
import { AgentPeer } from '../../agent/peer.js';
import type { AppContext } from '../../module.js';
import { nodeOffline } from '../nodes/registry.js';
import { holderUrl, relayUrl } from './processes.js';

const CONNECT_TIMEOUT_MS = 10_000;

function sameUrl(a: string, b: string | null): boolean {
  if (b === null) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return a === b;
  }
}

/**
 * This process's relays to agents held by other server processes: one
 * WebSocket per node, opened on first use and shared by every request and
 * stream of that node (the agent protocol multiplexes them), dropped when
 * it closes.
 */
export class RemoteAgents {
  private readonly peers = new Map<string, Promise<AgentPeer>>();
  private closed = false;
  /**
   * This process's own internal URL, once it listens. A process restarted
   * after a crash on the same URL finds its dead predecessor still named as
   * the holder for a while: a relay there would reach itself.
   */
  selfUrl: string | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly self: string,
    private readonly secret: () => Promise<string>,
  ) {}

  async reach(nodeId: string): Promise<AgentPeer> {
    const cached = this.peers.get(nodeId);
    if (cached !== undefined) {
      const peer = await cached.catch(() => undefined);
      if (peer?.connected === true) return peer;
      if (this.peers.get(nodeId) === cached) this.peers.delete(nodeId);
    }
    const url = await holderUrl(this.ctx.db, nodeId, this.self);
    if (url === undefined || this.closed || sameUrl(url, this.selfUrl)) throw nodeOffline(nodeId);
    const opening = this.open(url, nodeId);
    this.peers.set(nodeId, opening);
    try {
      return await opening;
    } catch (error) {
      if (this.peers.get(nodeId) === opening) this.peers.delete(nodeId);
      this.ctx.log.warn({ err: error, nodeId, url }, 'could not open a relay');
      throw nodeOffline(nodeId);
    }
  }

  private async open(url: string, nodeId: string): Promise<AgentPeer> {
    const socket = new WebSocket(relayUrl(url, nodeId), {
      headers: { authorization: `Relay ${await this.secret()}` },
      handshakeTimeout: CONNECT_TIMEOUT_MS,
      maxPayload: 64 * 1024 * 1024,
    });
    const peer = new AgentPeer(socket, {
      nodeId,
      helloTimeoutMs: CONNECT_TIMEOUT_MS,
      log: (level, message) => this.ctx.log[level]({ nodeId }, `relay: ${message}`),
    });
    socket.on('error', () => {});
    peer.on('close', () => {
      const current = this.peers.get(nodeId);
      // The opening may have failed (this close is why): `reach` forgets it then.
      current
        ?.then((held) => {
          if (held === peer && this.peers.get(nodeId) === current) this.peers.delete(nodeId);
        })
        .catch(() => {});
    });
    await peer.hello;
    return peer;
  }

  closeAll(): void {
    this.closed = true;
    for (const opening of this.peers.values()) {
      void opening.then((peer) => peer.close(1001, 'server shutting down')).catch(() => {});
    }
    this.peers.clear();
  }
}
