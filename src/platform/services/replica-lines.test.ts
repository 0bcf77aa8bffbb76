import { describe, expect, it } from 'vitest';
import { LinePrefixer, prefixLines, shortReplicaId } from './replica-lines.js';

describe('replica line prefixes', () => {
  it('prefix every line once, whatever the chunks', () => {
    const prefixer = new LinePrefixer('r1 abc123');
    const chunks = ['one\ntw', 'o\n', '\nthree', ' and more\nfour\n'].map((text) =>
      prefixer.apply(Buffer.from(text)).toString(),
    );
    expect(chunks.join('')).toBe(
      '[r1 abc123] one\n[r1 abc123] two\n[r1 abc123] \n[r1 abc123] three and more\n[r1 abc123] four\n',
    );
    expect(prefixer.apply(Buffer.alloc(0)).length).toBe(0);
  });

  it('end a prefixed text with a newline, and leave an empty one empty', () => {
    expect(prefixLines('r2 ffffff', 'a\nb')).toBe('[r2 ffffff] a\n[r2 ffffff] b\n');
    expect(prefixLines('r2 ffffff', '')).toBe('');
  });

  it('name a replica by the last six hex digits of its id', () => {
    expect(shortReplicaId('01a22069-c591-77cc-b78e-73360BF22488')).toBe('f22488');
  });
});
