import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/helpers/database.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { isValidKey, keyBetween, keysBetween } from './order.js';
import fixture from './order-keys.fixture.json' with { type: 'json' };

/**
 * Keys already stored in databases must stay valid bounds and keep their
 * order. The fixture holds keys made by the hand-written implementation that
 * preceded the library (appends, prepends, long squeezes between neighbours,
 * random inserts, integer-length boundaries); it is frozen: never regenerate
 * it from the current code.
 */
type Corpus = Record<string, string[]>;

/** Keys of a list of `runs` steps, keeping every `every`th and each change of length. */
function run(start: string, step: (key: string) => string, runs: number, every: number): string[] {
  const kept = [start];
  let key = start;
  for (let index = 1; index <= runs; index++) {
    const next = step(key);
    if (index % every === 0 || next.length !== key.length || index === runs) {
      if (kept.at(-1) !== key) kept.push(key);
      kept.push(next);
    }
    key = next;
  }
  return kept;
}

function byteOrder(a: string | null, b: string | null): number {
  return Buffer.compare(Buffer.from(a ?? ''), Buffer.from(b ?? ''));
}

function randomInserts(count: number, every: number): string[] {
  const list: string[] = [];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let index = 0; index < count; index++) {
    const at = Math.floor(random() * (list.length + 1));
    list.splice(at, 0, keyBetween(list[at - 1] ?? null, list[at] ?? null));
  }
  return list.filter((_, index) => index % every === 0);
}

function buildCorpus(): Corpus {
  const first = keyBetween(null, null);
  const second = keyBetween(first, null);
  const append = (key: string) => keyBetween(key, null);
  const prepend = (key: string) => keyBetween(null, key);
  let low = first;
  const zigzag = [first, second];
  let high = second;
  for (let index = 0; index < 200; index++) {
    const middle = keyBetween(low, high);
    zigzag.push(middle);
    if (index % 2 === 0) low = middle;
    else high = middle;
  }
  const starts = [
    'az',
    'bzz',
    'czzz',
    `y${'z'.repeat(25)}`,
    'Z0',
    'Y00',
    'X000',
    `B${'0'.repeat(25)}`,
  ];
  const boundaries = new Set(
    starts.flatMap((start) => [...run(start, append, 3, 1), ...run(start, prepend, 3, 1)]),
  );
  const largest = `z${'z'.repeat(26)}`;
  return {
    appends: run(first, append, 5000, 100),
    prepends: run(first, prepend, 5000, 100).reverse(),
    squeezeDown: run(second, (key) => keyBetween(first, key), 400, 20).reverse(),
    squeezeUp: run(first, (key) => keyBetween(key, second), 400, 20),
    zigzag: zigzag.sort(byteOrder).filter((_, index) => index % 5 === 0),
    random: randomInserts(3000, 10),
    boundaries: [...boundaries].sort(byteOrder),
    pastLargest: run(largest, append, 200, 10),
    batchAppends: keysBetween('c000', null, 70),
  };
}

const corpus: Corpus = fixture;
const all = [...new Set(Object.values(corpus).flat())].sort(byteOrder);

describe('order keys stored before the library', () => {
  it('are what the current code still makes', () => {
    expect(buildCorpus()).toEqual(corpus);
  });

  it('are valid and each list is strictly increasing in byte order', () => {
    expect(all.length).toBeGreaterThan(1000);
    for (const key of all) expect(isValidKey(key), key).toBe(true);
    for (const keys of Object.values(corpus)) {
      for (let index = 1; index < keys.length; index++) {
        expect(byteOrder(keys[index - 1] ?? '', keys[index] ?? ''), keys[index]).toBeLessThan(0);
      }
    }
  });

  it('bound new keys between every two neighbours and at both ends', () => {
    const between = (a: string | null, b: string | null) => {
      const key = keyBetween(a, b);
      if (!isValidKey(key)) throw new Error(`invalid key ${key} between ${a} and ${b}`);
      if (a !== null && byteOrder(a, key) >= 0) throw new Error(`${key} not after ${a}`);
      if (b !== null && byteOrder(key, b) >= 0) throw new Error(`${key} not before ${b}`);
    };
    between(null, all[0] ?? null);
    between(all.at(-1) ?? null, null);
    for (let index = 1; index < all.length; index++) {
      const a = all[index - 1] ?? null;
      const b = all[index] ?? null;
      between(a, b);
      between(a, null);
      between(null, b);
      const keys = keysBetween(a, b, 3);
      expect([a, ...keys, b]).toEqual([a, ...keys, b].sort(byteOrder));
      expect(new Set(keys).size).toBe(3);
    }
  });
});

describe('order keys in the database', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('sort under collation "C" as in JavaScript', async () => {
    const shuffled = [...all].reverse();
    const { rows } = await sql<{ key: string }>`
      select key from unnest(${shuffled}::text[]) as key order by key collate "C"
    `.execute(handle.db);
    expect(rows.map((row) => row.key)).toEqual(all);
    expect([...all].sort()).toEqual(all);
  });
});
