import { randomInt } from 'node:crypto';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';

/**
 * Fractional order keys: strings that sort bytewise (collation "C") and
 * between any two of which a new key can always be made, so placing a card
 * never renumbers others. The keys are fractional-indexing's default format,
 * the one this module wrote by hand before: an integer part (a length letter,
 * `a`-`z` for 1 to 26 digits, `Z`-`A` for negatives, then base-62 digits)
 * followed by an optional fraction (base-62 digits, never ending in `0`).
 * Appending keeps keys short: a million appends stay under five characters.
 */

const KEY = /^[0-9A-Za-z]+$/;

export function isValidKey(key: string): boolean {
  // The library reads unknown digits as zero, so they are refused here first.
  if (!KEY.test(key)) return false;
  try {
    generateKeyBetween(key, null);
    return true;
  } catch {
    return false;
  }
}

/** The library would swap bounds given in reverse; a caller doing so has a bug. */
function assertOrdered(a: string | null, b: string | null): void {
  if (a !== null && b !== null && a >= b) throw new Error(`order keys out of order: ${a} >= ${b}`);
}

/** A key strictly between `a` and `b`; null means the start or the end of the list. */
export function keyBetween(a: string | null, b: string | null): string {
  assertOrdered(a, b);
  return generateKeyBetween(a, b);
}

/** `count` keys in order between `a` and `b`. */
export function keysBetween(a: string | null, b: string | null, count: number): string[] {
  assertOrdered(a, b);
  return generateNKeysBetween(a, b, count);
}

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const JITTER_DIGITS = 4;

/** Random base-62 digits, the last never `0`, so a key with them appended stays a valid key. */
function jitter(): string {
  let digits = '';
  for (let index = 0; index < JITTER_DIGITS; index++) {
    digits += DIGITS[randomInt(index === JITTER_DIGITS - 1 ? 1 : 0, DIGITS.length)];
  }
  return digits;
}

/**
 * `key` with random digits appended, below `upper`: when `upper` extends
 * `key` (`a0` below `a0V`), the random digits may land above it, so the key
 * steps towards `upper` (staying between) and tries again.
 */
function spread(key: string, upper: string | null): string {
  let base = key;
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = base + jitter();
    if (upper === null || candidate < upper) return candidate;
    if (upper.startsWith(base)) base = keyBetween(base, upper);
  }
  return base;
}

/**
 * `count` keys in order between `a` and `b`, each with a few random digits
 * appended where they keep the order: writers that place cards between the
 * same neighbours at the same moment (no lock orders them) get different
 * keys, about 1 in 15 million times the same. Should two keys still tie,
 * cards sort by id.
 */
export function spreadKeysBetween(a: string | null, b: string | null, count: number): string[] {
  const keys = keysBetween(a, b, count);
  return keys.map((key, index) => spread(key, keys[index + 1] ?? b));
}

export function spreadKeyBetween(a: string | null, b: string | null): string {
  return spread(keyBetween(a, b), b);
}
