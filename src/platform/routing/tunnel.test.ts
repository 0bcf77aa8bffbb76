import { describe, expect, it } from 'vitest';
import type { AgentPeer, PeerStream } from '../../agent/peer.js';
import { TunnelSocket } from './tunnel.js';

function attached(): { socket: TunnelSocket; closed: () => boolean } {
  let closed = false;
  const stream: PeerStream = {
    id: 's1',
    input: () => {},
    resize: () => {},
    pause: () => {},
    resume: () => {},
    close: () => {
      closed = true;
    },
  };
  const socket = new TunnelSocket();
  socket.attach(stream, { bufferedAmount: 0 } as unknown as AgentPeer);
  return { socket, closed: () => closed };
}

describe('TunnelSocket', () => {
  it('delivers every byte that came before the end to a reader slower than the agent', async () => {
    const { socket } = attached();
    // Ended (every byte read) or closed first (the rest dropped): the length tells.
    const over = new Promise<void>((resolve, reject) => {
      socket.once('end', resolve);
      socket.once('close', resolve);
      socket.once('error', reject);
    });
    const sent = Buffer.alloc(3 * 1024 * 1024, 7);
    // The agent sends the whole answer and the container closes before anything is read.
    for (let at = 0; at < sent.length; at += 64 * 1024) {
      socket.received(sent.subarray(at, at + 64 * 1024));
    }
    socket.ended({});
    await new Promise((resolve) => setTimeout(resolve, 20));
    let length = 0;
    socket.on('data', (chunk: Buffer) => {
      length += chunk.length;
    });
    await over;
    expect(length).toBe(sent.length);
    await new Promise((resolve) => socket.once('close', resolve));
    expect(socket.destroyed).toBe(true);
  });

  it('goes at once when nothing is left to read', async () => {
    const { socket, closed } = attached();
    socket.ended({});
    await new Promise((resolve) => socket.once('close', resolve));
    expect(socket.destroyed).toBe(true);
    expect(closed()).toBe(false);
  });
});
