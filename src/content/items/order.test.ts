import { describe, expect, it } from 'vitest';
import {
  isValidKey,
  keyBetween,
  keysBetween,
  spreadKeyBetween,
  spreadKeysBetween,
} from './order.js';

describe('fractional order keys', () => {
  it('starts in the middle and appends and prepends in order', () => {
    const first = keyBetween(null, null);
    const after = keyBetween(first, null);
    const before = keyBetween(null, first);
    expect(before < first && first < after).toBe(true);
    for (const key of [first, after, before]) expect(isValidKey(key)).toBe(true);
  });

  it('keeps prepends ordered across the negative integers', () => {
    let key = keyBetween(null, null);
    for (let index = 0; index < 100_000; index++) {
      const next = keyBetween(null, key);
      if (!(next < key) || !isValidKey(next))
        throw new Error(`bad prepend at ${index}: ${next} before ${key}`);
      key = next;
    }
  });

  it('always finds a key between two neighbours, even after many inserts at one place', () => {
    const low = keyBetween(null, null);
    let high = keyBetween(low, null);
    for (let index = 0; index < 500; index++) {
      const middle = keyBetween(low, high);
      expect(low < middle && middle < high).toBe(true);
      expect(isValidKey(middle)).toBe(true);
      high = middle;
    }
  });

  it('orders random inserts like the list they describe', () => {
    const list: string[] = [];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let index = 0; index < 5000; index++) {
      const at = Math.floor(random() * (list.length + 1));
      const key = keyBetween(list[at - 1] ?? null, list[at] ?? null);
      list.splice(at, 0, key);
    }
    expect([...list].sort()).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
  });

  it('makes several keys at once and refuses keys out of order', () => {
    const keys = keysBetween('a1', 'a2', 10);
    expect([...keys].sort()).toEqual(keys);
    expect(keys.every((key) => key > 'a1' && key < 'a2')).toBe(true);
    expect(() => keyBetween('a2', 'a1')).toThrow(/out of order/);
    expect(isValidKey('a10')).toBe(false);
    expect(isValidKey('!')).toBe(false);
  });
});

describe('spread keys (placement without a lock)', () => {
  it('are valid, in order, and differ for writers placing between the same neighbours', () => {
    const cases: Array<[string | null, string | null]> = [
      [null, null],
      ['a5', null],
      [null, 'a0'],
      ['a1', 'a2'],
      ['a1V', 'a1W'],
      ['Zz', 'a0V'],
    ];
    for (const [a, b] of cases) {
      const keys = Array.from({ length: 200 }, () => spreadKeyBetween(a, b));
      for (const key of keys) {
        expect(isValidKey(key), key).toBe(true);
        expect(a === null || key > a, `${key} > ${a}`).toBe(true);
        expect(b === null || key < b, `${key} < ${b}`).toBe(true);
      }
      expect(new Set(keys).size).toBeGreaterThan(190);
    }
  });

  it('keeps a batch in order and between its bounds', () => {
    const keys = spreadKeysBetween('a1', 'a3', 50);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(50);
    expect(keys.every((key) => key > 'a1' && key < 'a3' && isValidKey(key))).toBe(true);
  });
});
