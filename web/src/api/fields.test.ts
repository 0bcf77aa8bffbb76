import { describe, expect, it } from 'vitest';
import { colorName, FIELD_TYPES, keyFromName, viewsInWords, viewsOfRefusal } from './fields.js';

describe('the field registry helpers', () => {
  it('derives a key the API accepts from a name', () => {
    expect(keyFromName('Due date')).toBe('due_date');
    expect(keyFromName('  Épopée / Thème ')).toBe('epopee_theme');
    expect(keyFromName('2nd review')).toBe('nd_review');
    expect(keyFromName('x'.repeat(60))).toHaveLength(40);
  });

  it('offers every type of the API', () => {
    expect(FIELD_TYPES).toEqual([
      'text',
      'number',
      'select',
      'multi_select',
      'person',
      'multi_person',
      'date',
      'checkbox',
      'url',
      'email',
      'file',
    ]);
  });

  it('names palette colors and leaves others as hex', () => {
    expect(colorName('#DC2626')).toBe('Red');
    expect(colorName('#123456')).toBe('#123456');
  });

  it('reads the views of a field_in_use refusal and says them in words', () => {
    const details = {
      viewIds: ['a', 'b'],
      views: [
        { id: 'a', name: 'Top', collectionId: 'l', collectionName: 'Roadmap' },
        { id: 'b', name: 'Late', collectionId: 'm', collectionName: 'Bugs' },
        { id: 'c' },
      ],
    };
    const views = viewsOfRefusal(details);
    expect(views.map((view) => view.id)).toEqual(['a', 'b']);
    expect(viewsInWords(views.slice(0, 1))).toBe('the view “Top” of Roadmap');
    expect(viewsInWords(views)).toBe('the views “Top” of Roadmap and “Late” of Bugs');
    expect(viewsOfRefusal({ viewIds: ['a'] })).toEqual([]);
  });
});
