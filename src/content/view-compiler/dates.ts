import { UTCDate } from '@date-fns/utc';
import { add, addDays } from 'date-fns';
import type { RelativeRange } from './definition.js';

/** The calendar day after a `YYYY-MM-DD` day. */
export function nextDay(day: string): string {
  return dayOf(addDays(new UTCDate(`${day}T00:00:00Z`), 1));
}

export function isDayOnly(value: string): boolean {
  return value.length === 10;
}

/**
 * `now` moved by a relative range, backwards (-1) or forwards (+1). A month
 * or year from a day the target month lacks ends on that month's last day
 * (31 March less a month is 28 or 29 February), never spilling into the next.
 */
export function shift(now: Date, range: RelativeRange, sign: 1 | -1): Date {
  // UTCDate makes date-fns count in the UTC calendar whatever the server's zone.
  return new Date(add(new UTCDate(now), { [range.unit]: range.amount * sign }).getTime());
}

export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}
