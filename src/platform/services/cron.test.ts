import { describe, expect, it } from 'vitest';
import { dueTicks } from './cron.js';

describe('cron ticks', () => {
  it('lists the ticks after `from` up to and with `to`, in UTC', () => {
    const from = new Date('2026-11-28T10:00:00.000Z');
    const to = new Date('2026-11-28T10:03:00.000Z');
    expect(dueTicks('* * * * *', from, to).map((tick) => tick.toISOString())).toEqual([
      '2026-11-28T10:01:00.000Z',
      '2026-11-28T10:02:00.000Z',
      '2026-11-28T10:03:00.000Z',
    ]);
    expect(dueTicks('0 10 * * *', from, to)).toEqual([]);
    expect(dueTicks('*/30 * * * * *', from, new Date('2026-11-28T10:01:00.500Z'))).toHaveLength(2);
  });
});
