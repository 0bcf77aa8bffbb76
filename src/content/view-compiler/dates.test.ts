import { afterEach, describe, expect, it } from 'vitest';
import { nextDay, shift } from './dates.js';
import type { RelativeRange } from './definition.js';

const month: RelativeRange = { amount: 1, unit: 'months' };

function moved(now: string, range: RelativeRange, sign: 1 | -1): string {
  return shift(new Date(now), range, sign).toISOString();
}

/** Month and year arithmetic stops at the end of a shorter month instead of spilling over. */
const cases: Array<[string, RelativeRange, 1 | -1, string]> = [
  ['2025-03-31T10:30:00.000Z', month, -1, '2025-02-28T10:30:00.000Z'],
  ['2024-03-31T10:30:00.000Z', month, -1, '2024-02-29T10:30:00.000Z'],
  ['2025-01-31T23:59:59.999Z', month, 1, '2025-02-28T23:59:59.999Z'],
  ['2024-01-31T00:00:00.000Z', month, 1, '2024-02-29T00:00:00.000Z'],
  ['2025-05-31T08:00:00.000Z', { amount: 3, unit: 'months' }, -1, '2025-02-28T08:00:00.000Z'],
  ['2025-12-31T08:00:00.000Z', { amount: 2, unit: 'months' }, 1, '2026-02-28T08:00:00.000Z'],
  ['2024-02-29T12:00:00.000Z', { amount: 1, unit: 'years' }, 1, '2025-02-28T12:00:00.000Z'],
  ['2024-02-29T12:00:00.000Z', { amount: 4, unit: 'years' }, -1, '2020-02-29T12:00:00.000Z'],
  ['2026-06-15T12:00:00.000Z', month, 1, '2026-07-15T12:00:00.000Z'],
  ['2026-03-01T00:15:00.000Z', { amount: 1, unit: 'days' }, -1, '2026-02-28T00:15:00.000Z'],
  ['2026-03-29T01:30:00.000Z', { amount: 2, unit: 'weeks' }, -1, '2026-03-15T01:30:00.000Z'],
  ['2026-10-25T00:30:00.000Z', { amount: 1, unit: 'days' }, 1, '2026-10-26T00:30:00.000Z'],
];

describe('relative date ranges', () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it.each(cases)('%s moved by %o (%i) is %s', (now, range, sign, expected) => {
    expect(moved(now, range, sign)).toBe(expected);
  });

  it('count calendar days and months in UTC whatever the server time zone', () => {
    for (const name of ['Europe/Paris', 'America/Sao_Paulo', 'Pacific/Auckland', 'Asia/Kolkata']) {
      process.env.TZ = name;
      for (const [now, range, sign, expected] of cases) {
        expect(moved(now, range, sign), `${name}: ${now}`).toBe(expected);
      }
    }
  });

  it('find the next calendar day across month and year ends', () => {
    expect(nextDay('2024-02-28')).toBe('2024-02-29');
    expect(nextDay('2025-02-28')).toBe('2025-03-01');
    expect(nextDay('2025-12-31')).toBe('2026-01-01');
    expect(nextDay('2026-03-29')).toBe('2026-03-30');
  });
});
