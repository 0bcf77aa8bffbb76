import type { RelativeRange } from './definition.js';

/** The calendar day after a `YYYY-MM-DD` day. */
export function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

export function isDayOnly(value: string): boolean {
  return value.length === 10;
}

/** `now` moved by a relative range, backwards (-1) or forwards (+1). */
export function shift(now: Date, range: RelativeRange, sign: 1 | -1): Date {
  const date = new Date(now.getTime());
  const amount = range.amount * sign;
  if (range.unit === 'days') date.setUTCDate(date.getUTCDate() + amount);
  else if (range.unit === 'weeks') date.setUTCDate(date.getUTCDate() + amount * 7);
  else if (range.unit === 'months') date.setUTCMonth(date.getUTCMonth() + amount);
  else date.setUTCFullYear(date.getUTCFullYear() + amount);
  return date;
}

export function dayOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}
