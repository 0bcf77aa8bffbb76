import { describe, expect, it } from 'vitest';
import { idTime, nextIds } from './event-ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('nextIds', () => {
  it('makes UUIDv7 ids carrying the time, increasing within one call', () => {
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    const ids = nextIds(1000, null, now);
    expect(ids).toHaveLength(1000);
    for (const id of ids) expect(id).toMatch(V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
    expect(idTime(ids[0] ?? '').getTime()).toBe(now);
  });

  it('stays above the last id even when the clock is behind it', () => {
    const later = nextIds(1, null, Date.UTC(2030, 0, 1))[0] ?? '';
    const next = nextIds(3, later, Date.UTC(2026, 0, 1));
    expect(next.every((id) => id > later)).toBe(true);
    expect(idTime(next[0] ?? '').getTime()).toBe(Date.UTC(2030, 0, 1));
  });

  it('starts a fresh millisecond when the clock has moved on', () => {
    const first = nextIds(1, null, 1_000)[0] ?? '';
    const second = nextIds(1, first, 2_000)[0] ?? '';
    expect(second > first).toBe(true);
    expect(idTime(second).getTime()).toBe(2_000);
  });

  it('carries into the next millisecond when a counter is exhausted', () => {
    const top = 'ffffffff-ffff-7fff-bfff-ffffffffffff'.replace(/^ffffffff-ffff/, '00000000-03e8');
    const [next] = nextIds(1, top, 1_000);
    expect(next).toMatch(V7);
    expect((next ?? '') > top).toBe(true);
    expect(idTime(next ?? '').getTime()).toBe(1_001);
  });
});
