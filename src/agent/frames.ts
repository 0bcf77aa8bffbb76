import type { Channel } from './protocol/messages.js';

export interface Frame {
  channel: Channel;
  data: Buffer;
}

const HEADER = 8;

/**
 * Splits the engine's multiplexed stream (a non-TTY exec or container's
 * output): each frame is an 8-byte header (stream 1 stdout, 2 stderr; bytes
 * 4-7 the big-endian length) followed by its payload. Frames may arrive split
 * across chunks or several in one chunk.
 */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Frame[] = [];
    let offset = 0;
    while (this.pending.length - offset >= HEADER) {
      const kind = this.pending[offset];
      const length = this.pending.readUInt32BE(offset + 4);
      if (this.pending.length - offset - HEADER < length) break;
      const data = this.pending.subarray(offset + HEADER, offset + HEADER + length);
      // Stream 0 (stdin) is never sent back; treat anything but stderr as stdout.
      frames.push({ channel: kind === 2 ? 'stderr' : 'stdout', data });
      offset += HEADER + length;
    }
    this.pending = offset === 0 ? this.pending : this.pending.subarray(offset);
    return frames;
  }

  /** Bytes of an incomplete frame still waiting for the rest. */
  get buffered(): number {
    return this.pending.length;
  }
}

/** Decodes a whole multiplexed buffer (logs without follow). */
export function demultiplex(buffer: Buffer): Frame[] {
  return new FrameDecoder().push(buffer);
}
