import { describe, expect, it } from 'vitest';
import { RECOVERY_CONCURRENCY, Recovery } from './recovery.js';

/** A recovery whose steps the test releases by hand. */
function scripted(ids: string[]) {
  let running = 0;
  let most = 0;
  const done = new Set<string>();
  const release = new Map<string, () => void>();
  const recovery = new Recovery({
    list: async () => ids,
    recover: (id) => {
      running++;
      most = Math.max(most, running);
      return new Promise<void>((resolve) => {
        release.set(id, () => {
          running--;
          done.add(id);
          resolve();
        });
      });
    },
  });
  return { recovery, done, release, most: () => most, running: () => running };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('recovering containers after the welcome', () => {
  it('recovers a few containers at a time, and a request waits for its container only', async () => {
    const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
    const { recovery, done, release, most, running } = scripted(ids);
    recovery.start('node-1');
    await until(() => running() >= RECOVERY_CONCURRENCY);
    // Given time, no more start while these hold their places.
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(running()).toBe(RECOVERY_CONCURRENCY);

    let first = false;
    void recovery.ready('c0').then(() => {
      first = true;
    });
    let all = false;
    void recovery.settled().then(() => {
      all = true;
    });
    release.get('c0')?.();
    await until(() => first);
    expect(done.has('c0')).toBe(true);
    expect(all).toBe(false);

    // A container the agent created since, or of no recovery, is ready at once.
    await recovery.ready('not-recovered');
    while (done.size < ids.length) {
      for (const [id, go] of release) if (!done.has(id)) go();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await recovery.settled();
    expect(all).toBe(true);
    expect(most()).toBe(RECOVERY_CONCURRENCY);
  });

  it('lists again at the next welcome when the listing failed, and recovers each container once', async () => {
    let listings = 0;
    const recovered: string[] = [];
    const recovery = new Recovery({
      list: async () => {
        listings++;
        if (listings === 1) throw new Error('engine down');
        return ['a', 'b'];
      },
      recover: async (id) => {
        recovered.push(id);
      },
    });
    recovery.start('node-1');
    await recovery.settled();
    recovery.start('node-1');
    await recovery.settled();
    recovery.start('node-1');
    recovery.adopt(['a', 'c']);
    await recovery.settled();
    expect(listings).toBe(2);
    expect(recovered.sort()).toEqual(['a', 'b', 'c']);
  });
});
