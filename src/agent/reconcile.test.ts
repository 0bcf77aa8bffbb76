import { describe, expect, it } from 'vitest';
import type { ContainerSummary } from './protocol/schemas.js';
import { reconcile } from './reconcile.js';

function container(id: string, workerId: string | null): ContainerSummary {
  return {
    id,
    name: `c-${id.slice(0, 4)}`,
    image: 'img',
    state: 'running',
    status: 'Up',
    labels: {},
    workerId,
    createdAt: null,
    ports: [],
  };
}

describe('reconciling workers with the inventory', () => {
  const a = container('a'.repeat(64), 'w-a');
  const b = container('b'.repeat(64), 'w-b');
  const stray = container('c'.repeat(64), 'w-gone-long-ago');
  const unlabelled = container('d'.repeat(64), null);

  it('matches by recorded container id (full or short), else by the worker label', () => {
    const result = reconcile(
      [a, b, stray, unlabelled],
      [
        { workerId: 'w-a', containerId: 'a'.repeat(12) },
        { workerId: 'w-b', containerId: null },
        { workerId: 'w-vanished', containerId: 'e'.repeat(64) },
      ],
    );
    expect(result.present).toEqual([
      { workerId: 'w-a', container: a },
      { workerId: 'w-b', container: b },
    ]);
    expect(result.missing).toEqual(['w-vanished']);
    expect(result.orphans).toEqual([stray, unlabelled]);
  });

  it('gives one container to one worker only', () => {
    const result = reconcile(
      [a],
      [
        { workerId: 'w-a', containerId: null },
        { workerId: 'w-copy', containerId: a.id },
      ],
    );
    expect(result.present.map((p) => p.workerId)).toEqual(['w-a']);
    expect(result.missing).toEqual(['w-copy']);
  });
});
