import { describe, expect, it } from 'vitest';
import { afterSave, type DraftStorage, readDraft, withoutSaved, writeDraft } from './drafts.js';

function memory(): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

const doc = (text: string) => ({
  blocks: [{ type: 'paragraph' as const, content: [{ type: 'text' as const, text }] }],
});

describe('card drafts', () => {
  it('keeps a draft per card and removes it once empty', () => {
    const storage = memory();
    writeDraft(storage, 'a', { title: 'typed', blocks: doc('body') });
    expect(readDraft(storage, 'a')).toEqual({ title: 'typed', blocks: doc('body') });
    expect(readDraft(storage, 'b')).toEqual({});
    writeDraft(storage, 'a', {});
    expect(storage.map.size).toBe(0);
  });

  it('reads a damaged or foreign entry as no draft', () => {
    const storage = memory();
    storage.setItem('sparrow:card-draft:a', '{not json');
    expect(readDraft(storage, 'a')).toEqual({});
    storage.setItem('sparrow:card-draft:a', '{"title": 3}');
    expect(readDraft(storage, 'a')).toEqual({});
  });

  it('drops only what the server accepted, not what was typed during the save', () => {
    const sent = { title: 'one', blocks: doc('one') };
    expect(afterSave({ title: 'one', blocks: doc('one') }, sent)).toEqual({});
    expect(afterSave({ title: 'one more', blocks: doc('one') }, sent)).toEqual({
      title: 'one more',
    });
    expect(afterSave({ blocks: doc('two') }, { title: 'one' })).toEqual({ blocks: doc('two') });
  });

  it('forgets the parts the server already holds', () => {
    expect(
      withoutSaved({ title: 'same', blocks: doc('new') }, { title: 'same', blocks: doc('old') }),
    ).toEqual({ blocks: doc('new') });
  });
});
