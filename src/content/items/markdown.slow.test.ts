import { describe, expect, it } from 'vitest';
import { bodyValidator } from '../../http/validation.js';
import { BlockDocument } from './block-schemas.js';
import { normalizeBlockDocument } from './blocks.js';
import { parseMarkdown } from './markdown-parse.js';
import { renderMarkdown } from './markdown-render.js';

/**
 * Two thousand random texts through the Markdown reader: pure, but seconds
 * long, so kept out of the unit tier (a `.slow.test.ts` file runs with the
 * db tier).
 */
describe('robustness', () => {
  const check = bodyValidator(BlockDocument);
  it('reads any text without throwing, into a valid document', () => {
    const alphabet = [
      '*',
      '_',
      '~',
      '`',
      '[',
      ']',
      '(',
      ')',
      '<u>',
      '</u>',
      '\\',
      '#',
      '>',
      '-',
      '1.',
      ' ',
      '\n',
      'a',
      'é',
      '%',
      '!',
      'file:',
      'http://x',
      '[!callout]',
      '```',
    ];
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 2000; run++) {
      const length = Math.floor(random() * 40);
      const text = Array.from(
        { length },
        () => alphabet[Math.floor(random() * alphabet.length)],
      ).join('');
      const parsed = parseMarkdown(text);
      expect(check(parsed), text).toBe(true);
      expect(normalizeBlockDocument(parsed), text).toEqual(parsed);
      expect(() => renderMarkdown(parsed), text).not.toThrow();
    }
  });
});
