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
