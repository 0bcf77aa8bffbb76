import { describe, expect, it } from 'vitest';
import { keyBetween, spreadKeyBetween } from './order.js';

/**
 * The order keys over a million appends: pure, but seconds long, so kept out
 * of the unit tier (a `.slow.test.ts` file runs with the db tier).
 */
describe('fractional order keys', () => {
  it('keeps a million appends short and ordered', () => {
    let key = keyBetween(null, null);
    let longest = 0;
    for (let index = 0; index < 1_000_000; index++) {
      const next = keyBetween(key, null);
      if (!(next > key)) throw new Error(`not increasing at ${index}: ${key} -> ${next}`);
      key = next;
      longest = Math.max(longest, key.length);
    }
    expect(longest).toBeLessThanOrEqual(5);
  });
});

describe('spread keys (placement without a lock)', () => {
  it('stays short when appending a million times', () => {
    let key: string | null = null;
    let longest = 0;
    for (let index = 0; index < 1_000_000; index++) {
      const next = spreadKeyBetween(key, null);
      if (key !== null && !(next > key)) throw new Error(`not increasing: ${key} -> ${next}`);
      key = next;
      longest = Math.max(longest, key.length);
    }
    expect(longest).toBeLessThanOrEqual(9);
  });
});
