import { describe, expect, it } from 'vitest';
import { demultiplex, FrameDecoder } from './frames.js';

function frame(kind: number, text: string): Buffer {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = kind;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
}

describe('multiplexed stream decoding', () => {
  it('splits frames by channel, several in one chunk', () => {
    const frames = demultiplex(Buffer.concat([frame(1, 'out'), frame(2, 'err'), frame(1, '')]));
    expect(frames.map((f) => [f.channel, f.data.toString()])).toEqual([
      ['stdout', 'out'],
      ['stderr', 'err'],
      ['stdout', ''],
    ]);
  });

  it('joins a frame split across chunks at any byte, header included', () => {
    const whole = Buffer.concat([frame(1, 'hello wörld'), frame(2, 'x')]);
    for (let cut = 1; cut < whole.length; cut++) {
      const decoder = new FrameDecoder();
      const frames = [
        ...decoder.push(whole.subarray(0, cut)),
        ...decoder.push(whole.subarray(cut)),
      ];
      expect(frames.map((f) => f.data.toString())).toEqual(['hello wörld', 'x']);
      expect(decoder.buffered).toBe(0);
    }
  });
});
