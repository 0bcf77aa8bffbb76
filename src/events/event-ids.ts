import { randomBytes } from 'node:crypto';

/**
 * UUID version 7 identifiers that are strictly increasing after a given id:
 * 48 bits of Unix milliseconds, then a 74-bit counter (the 12 "rand_a" and 62
 * "rand_b" bits) that starts at a random value with headroom and counts up
 * within one millisecond. If the clock is behind the last id, the last id's
 * millisecond is reused, so order never goes backwards.
 */

const COUNTER_BITS = 74n;
const COUNTER_MAX = (1n << COUNTER_BITS) - 1n;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Parts {
  millis: bigint;
  counter: bigint;
}

function decode(id: string): Parts {
  const lower = id.toLowerCase();
  if (!UUID_PATTERN.test(lower)) throw new Error(`Not a UUIDv7: ${id}`);
  const value = BigInt(`0x${lower.replaceAll('-', '')}`);
  const millis = value >> 80n;
  const randA = (value >> 64n) & 0xfffn;
  const randB = value & ((1n << 62n) - 1n);
  return { millis, counter: (randA << 62n) | randB };
}

function encode({ millis, counter }: Parts): string {
  const randA = counter >> 62n;
  const randB = counter & ((1n << 62n) - 1n);
  const value = (millis << 80n) | (0x7n << 76n) | (randA << 64n) | (0x2n << 62n) | randB;
  const hex = value.toString(16).padStart(32, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A random counter start in the lower half, so a millisecond holds 2^73 more ids. */
function randomCounter(): bigint {
  const bytes = randomBytes(10);
  return BigInt(`0x${bytes.toString('hex')}`) & ((1n << (COUNTER_BITS - 1n)) - 1n);
}

/** The millisecond an id was made at (ids from this module only). */
export function idTime(id: string): Date {
  return new Date(Number(decode(id).millis));
}

/** `count` ids in increasing order, each greater than `after`. */
export function nextIds(count: number, after: string | null, now: number = Date.now()): string[] {
  const last = after === null ? null : decode(after);
  let current: Parts =
    last === null || BigInt(now) > last.millis
      ? { millis: BigInt(now), counter: randomCounter() }
      : { millis: last.millis, counter: last.counter + 1n };
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    if (current.counter > COUNTER_MAX)
      current = { millis: current.millis + 1n, counter: randomCounter() };
    ids.push(encode(current));
    current = { millis: current.millis, counter: current.counter + 1n };
  }
  return ids;
}
