import { describe, expect, it } from 'vitest';
import { lastProject, rememberProject } from './lastProject.js';

function memory() {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe('the last project a worker was opened from', () => {
  it('is kept and read back', () => {
    const store = memory();
    expect(lastProject(store)).toBeUndefined();
    rememberProject({ orgId: 'o', projectId: 'p' }, store);
    expect(lastProject(store)).toEqual({ orgId: 'o', projectId: 'p' });
  });

  it('reads nothing from what is not a choice', () => {
    const store = memory();
    for (const text of ['not json', '42', '{"orgId":1,"projectId":"p"}', '{"orgId":"o"}']) {
      store.setItem('sparrow.card-worker.project', text);
      expect(lastProject(store)).toBeUndefined();
    }
  });
});
