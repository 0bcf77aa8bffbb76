import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { sleep } from './replica-ops.js';

describe('the sleep between health probes', () => {
  it('leaves no abort listener on the deploy signal after many probes', async () => {
    const controller = new AbortController();
    for (let probe = 0; probe < 50; probe++) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('ends at once when the signal aborts, and leaves nothing behind', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const sleeping = sleep(60_000, controller.signal);
    controller.abort();
    await sleeping;
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('returns at once on a signal already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await sleep(60_000, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
