/**
 * Fractional order keys: strings that sort bytewise (collation "C") and
 * between any two of which a new key can always be made, so placing a card
 * never renumbers others. A key is an integer part (a length letter, `a`-`z`
 * for 1 to 26 digits, `Z`-`A` for negatives, then base-62 digits) followed by
 * an optional fraction (base-62 digits, never ending in `0`). Appending keeps
 * keys short: a million appends stay under five characters.
 */

const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = DIGITS.length;
const ZERO = DIGITS.charAt(0);
const SMALLEST_INTEGER = `A${ZERO.repeat(26)}`;

function digit(char: string): number {
  const value = DIGITS.indexOf(char);
  if (value < 0) throw new Error(`invalid order key digit: ${char}`);
  return value;
}

function integerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 'a'.charCodeAt(0) + 2;
  if (head >= 'A' && head <= 'Z') return 'Z'.charCodeAt(0) - head.charCodeAt(0) + 2;
  throw new Error(`invalid order key head: ${head}`);
}

function split(key: string): { integer: string; fraction: string } {
  const length = integerLength(key.charAt(0));
  if (key.length < length) throw new Error(`invalid order key: ${key}`);
  return { integer: key.slice(0, length), fraction: key.slice(length) };
}

export function isValidKey(key: string): boolean {
  try {
    const { integer, fraction } = split(key);
    for (const char of integer.slice(1) + fraction) digit(char);
    return integer !== SMALLEST_INTEGER && !fraction.endsWith(ZERO);
  } catch {
    return false;
  }
}

/** A fraction strictly between `a` and `b` (b null: 1), never ending in `0`. */
function midpoint(a: string, b: string | null): string {
  if (b !== null) {
    let common = 0;
    while ((a.charAt(common) || ZERO) === b.charAt(common)) common++;
    if (common > 0) return b.slice(0, common) + midpoint(a.slice(common), b.slice(common));
  }
  const low = a === '' ? 0 : digit(a.charAt(0));
  const high = b === null ? BASE : digit(b.charAt(0));
  if (high - low > 1) return DIGITS.charAt(Math.round((low + high) / 2));
  if (b !== null && b.length > 1) return b.charAt(0);
  return DIGITS.charAt(low) + midpoint(a.slice(1), null);
}

/** The integer part plus one, or null past the largest. */
function increment(integer: string): string | null {
  const head = integer.charAt(0);
  const digits = [...integer.slice(1)];
  for (let index = digits.length - 1; index >= 0; index--) {
    const value = digit(digits[index] ?? ZERO) + 1;
    if (value < BASE) {
      digits[index] = DIGITS.charAt(value);
      return head + digits.join('');
    }
    digits[index] = ZERO;
  }
  if (head === 'Z') return `a${ZERO}`;
  if (head === 'z') return null;
  const next = String.fromCharCode(head.charCodeAt(0) + 1);
  return head < 'a' ? next + digits.slice(1).join('') : `${next}${digits.join('')}${ZERO}`;
}

/** The integer part minus one, or null below the smallest. */
function decrement(integer: string): string | null {
  const head = integer.charAt(0);
  const digits = [...integer.slice(1)];
  for (let index = digits.length - 1; index >= 0; index--) {
    const value = digit(digits[index] ?? ZERO) - 1;
    if (value >= 0) {
      digits[index] = DIGITS.charAt(value);
      return head + digits.join('');
    }
    digits[index] = DIGITS.charAt(BASE - 1);
  }
  if (head === 'a') return `Z${DIGITS.charAt(BASE - 1)}`;
  if (head === 'A') return null;
  const previous = String.fromCharCode(head.charCodeAt(0) - 1);
  return head > 'Z'
    ? previous + digits.slice(1).join('')
    : `${previous}${digits.join('')}${DIGITS.charAt(BASE - 1)}`;
}

/** A key strictly between `a` and `b`; null means the start or the end of the list. */
export function keyBetween(a: string | null, b: string | null): string {
  if (a !== null && b !== null && a >= b) throw new Error(`order keys out of order: ${a} >= ${b}`);
  if (a === null && b === null) return `a${ZERO}`;
  if (a === null) {
    const { integer, fraction } = split(b ?? '');
    if (integer === SMALLEST_INTEGER) return integer + midpoint('', fraction);
    if (fraction !== '') return integer;
    const lower = decrement(integer);
    if (lower === null) throw new Error('order key space exhausted');
    return lower;
  }
  const { integer, fraction } = split(a);
  if (b === null) {
    const higher = increment(integer);
    return higher ?? integer + midpoint(fraction, null);
  }
  const upper = split(b);
  if (integer === upper.integer) return integer + midpoint(fraction, upper.fraction);
  const higher = increment(integer);
  if (higher !== null && higher < b) return higher;
  return integer + midpoint(fraction, null);
}

/** `count` keys in order between `a` and `b`. */
export function keysBetween(a: string | null, b: string | null, count: number): string[] {
  const keys: string[] = [];
  let previous = a;
  for (let index = 0; index < count; index++) {
    const key = keyBetween(previous, b);
    keys.push(key);
    previous = key;
  }
  return keys;
}
