import type WebSocket from 'ws';
import { decodeServerMessage, encodeMessage } from '../../agent/protocol/codec.js';
import type { HelloMessage } from '../../agent/protocol/messages.js';
import type { ConnectedAgent } from '../nodes/registry.js';

/** The relay socket holds this much unsent: the streams through it pause until it drains. */
const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 512 * 1024;
const DRAIN_CHECK_MS = 5;

/**
 * The holding process's end of a relay: another server process speaks the
 * agent protocol over `socket` as if it were this node's agent link. It is
 * greeted with the agent's hello; its frames go to the agent (ids prefixed),
 * the agent's answers come back. When the relay socket backs up, its streams
 * are paused at the agent (nothing dropped, nothing buffered without bound)
 * and resumed once it drains, unless the other side paused them itself.
 */
export function bridgeRelay(socket: WebSocket, agent: ConnectedAgent): void {
  const streams = new Set<string>();
  const pausedByPeer = new Set<string>();
  let hopPaused = false;

  const resumeWhenDrained = () => {
    const check = setInterval(() => {
      if (socket.readyState === socket.OPEN && socket.bufferedAmount >= LOW_WATER) return;
      clearInterval(check);
      hopPaused = false;
      for (const id of streams) {
        if (!pausedByPeer.has(id)) link.send({ type: 'stream.resume', id });
      }
    }, DRAIN_CHECK_MS);
  };

  const link = agent.peer.relay((message) => {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(encodeMessage(message));
    if (message.type === 'stream.end' || (message.type === 'response' && !message.ok)) {
      streams.delete(message.id);
      pausedByPeer.delete(message.id);
    }
    if (!hopPaused && socket.bufferedAmount > HIGH_WATER) {
      hopPaused = true;
      for (const id of streams) link.send({ type: 'stream.pause', id });
      resumeWhenDrained();
    }
  });

  // The relay speaks JSON only: the other process must not send binary input here.
  const { binaryFrames: _binary, ...greeting } = agent.hello;
  const hello: HelloMessage = { ...greeting, inventory: agent.inventory };
  socket.send(encodeMessage(hello));

  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return;
    const decoded = decodeServerMessage(data.toString('utf8'));
    if (!decoded.ok) return;
    const message = decoded.value;
    if (message.type === 'welcome') return;
    if (message.type === 'request' && message.id.startsWith('s')) streams.add(message.id);
    if (message.type === 'stream.pause') pausedByPeer.add(message.id);
    if (message.type === 'stream.resume') {
      pausedByPeer.delete(message.id);
      // Still backed up here: the stream resumes when this hop drains.
      if (hopPaused) return;
    }
    if (message.type === 'stream.close') {
      streams.delete(message.id);
      pausedByPeer.delete(message.id);
    }
    link.send(message);
  });

  const agentGone = () => socket.close(1012, 'the agent disconnected');
  agent.peer.on('close', agentGone);
  socket.on('close', () => {
    agent.peer.off('close', agentGone);
    for (const id of streams) link.send({ type: 'stream.close', id });
    link.close();
  });
}
