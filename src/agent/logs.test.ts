import { describe, expect, it } from 'vitest';
import { LastLines } from './logs.js';

function lastLines(count: number, chunks: string[], maxBytes?: number): string {
  const kept = new LastLines(count, maxBytes);
  for (const chunk of chunks) kept.push(Buffer.from(chunk));
  return kept.result().toString();
}

describe('LastLines', () => {
  it('counts a last line without a newline as a line', () => {
    expect(lastLines(2, ['one\ntwo\nthree\nfour'])).toBe('three\nfour');
    expect(lastLines(2, ['one\ntwo\nthree\n'])).toBe('two\nthree\n');
    expect(lastLines(1, ['one\n', 'four'])).toBe('four');
  });

  it('joins lines split across chunks, whatever the boundaries', () => {
    const text = 'alpha\nbe\nta\n\ngamma\ndelta';
    for (let size = 1; size <= text.length; size++) {
      const chunks: string[] = [];
      for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
      expect(lastLines(3, chunks)).toBe('\ngamma\ndelta');
      expect(lastLines(100, chunks)).toBe(text);
    }
  });

  it('keeps nothing for 0 lines and everything without a count', () => {
    expect(lastLines(0, ['a\nb'])).toBe('');
    expect(lastLines(Number.POSITIVE_INFINITY, ['a\n', 'b'])).toBe('a\nb');
  });

  it('keeps at most maxBytes, the last ones', () => {
    expect(lastLines(100, ['0123456789\n', 'abcdefghij\n'], 15)).toBe('789\nabcdefghij\n');
  });

  it('keeps the channel of every part, joining consecutive parts of one channel', () => {
    const kept = new LastLines(2);
    kept.push(Buffer.from('old\nout-'), 'stdout');
    kept.push(Buffer.from('err\n'), 'stderr');
    kept.push(Buffer.from('more-'), 'stdout');
    kept.push(Buffer.from('out'), 'stdout');
    expect(kept.frames().map((f) => [f.channel, f.data.toString()])).toEqual([
      ['stdout', 'out-'],
      ['stderr', 'err\n'],
      ['stdout', 'more-out'],
    ]);
  });
});
