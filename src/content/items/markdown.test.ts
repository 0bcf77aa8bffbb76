import { describe, expect, it } from 'vitest';
import { type BlockDocument, parseBlockDocument } from './blocks.js';
import { parseMarkdown } from './markdown-parse.js';
import { renderMarkdown } from './markdown-render.js';

const FILE = '0190d6e2-3c4b-7def-8123-456789abcdef';

const document: BlockDocument = {
  blocks: [
    { type: 'heading1', content: [{ type: 'text', text: 'Plan' }] },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Some ' },
        { type: 'text', text: 'bold', marks: ['bold'] },
        { type: 'text', text: ', ' },
        { type: 'text', text: 'both', marks: ['bold', 'italic'] },
        { type: 'text', text: ' and ' },
        { type: 'text', text: 'a_b*c', marks: ['code'] },
        { type: 'text', text: ' with snake_case and 2 * 3 [not a link]' },
        { type: 'text', text: ' gone', marks: ['strikethrough'] },
        { type: 'text', text: ' under', marks: ['underline'] },
      ],
    },
    { type: 'heading2', content: [{ type: 'text', text: 'Steps' }] },
    { type: 'numbered_list', content: [{ type: 'text', text: 'first' }] },
    { type: 'numbered_list', content: [{ type: 'text', text: 'second' }] },
    {
      type: 'bulleted_list',
      indent: 1,
      content: [
        {
          type: 'link',
          href: 'https://example.com/a_(b)',
          content: [{ type: 'text', text: 'site' }],
        },
      ],
    },
    { type: 'todo', checked: true, content: [{ type: 'text', text: 'done' }] },
    { type: 'todo', checked: false, indent: 2, content: [{ type: 'text', text: 'open' }] },
    { type: 'quote', content: [{ type: 'text', text: 'quoted\nsecond line' }] },
    { type: 'callout', icon: '💡', content: [{ type: 'text', text: 'tip' }] },
    { type: 'code', language: 'ts', text: 'const a = `x`;\n```nested```' },
    { type: 'divider' },
    { type: 'image', fileId: FILE, caption: [{ type: 'text', text: 'A picture' }] },
    {
      type: 'paragraph',
      content: [{ type: 'text', text: '# not a heading\n- not a list\n1. not numbered' }],
    },
    { type: 'heading3', content: [{ type: 'text', text: 'End' }] },
  ],
};

describe('Markdown projection', () => {
  it('renders every block type and reads it back to the same document', () => {
    const markdown = renderMarkdown(document);
    expect(markdown).toContain('# Plan');
    expect(markdown).toContain('**bold**');
    expect(markdown).toContain('1. first\n2. second');
    expect(markdown).toContain('- [x] done');
    expect(markdown).toContain(`![A picture](file:${FILE})`);
    expect(parseMarkdown(markdown)).toEqual(document);
  });

  it('reads ordinary Markdown', () => {
    const parsed = parseMarkdown(
      'Intro *italic* and __not bold__ here\ncontinued\n\n* one\n+ two\n   - deeper\n\n> a\n> b\n\n***\n\n```\nplain\n```',
    );
    expect(parsed.blocks.map((block) => block.type)).toEqual([
      'paragraph',
      'bulleted_list',
      'bulleted_list',
      'bulleted_list',
      'quote',
      'divider',
      'code',
    ]);
    expect(parsed.blocks[0]?.content).toEqual([
      { type: 'text', text: 'Intro ' },
      { type: 'text', text: 'italic', marks: ['italic'] },
      { type: 'text', text: ' and ' },
      { type: 'text', text: 'not bold', marks: ['bold'] },
      { type: 'text', text: ' here\ncontinued' },
    ]);
    expect(parsed.blocks[3]?.indent).toBe(1);
    expect(parsed.blocks[4]?.content).toEqual([{ type: 'text', text: 'a\nb' }]);
    expect(parsed.blocks[6]).toEqual({ type: 'code', text: 'plain' });
  });

  it('keeps unsafe link targets as text', () => {
    const parsed = parseMarkdown('[x](javascript:alert(1)) [y](https://ok.example)');
    expect(parsed.blocks[0]?.content?.filter((node) => node.type === 'link')).toEqual([
      { type: 'link', href: 'https://ok.example', content: [{ type: 'text', text: 'y' }] },
    ]);
  });

  it('produces documents the block validator accepts', () => {
    const markdown = renderMarkdown(document);
    expect(parseBlockDocument(parseMarkdown(markdown))).toEqual(document);
  });
});

describe('block validation', () => {
  const cases: Array<[string, unknown, string]> = [
    ['unknown type', { blocks: [{ type: 'table' }] }, 'unknown_block_type'],
    [
      'unknown mark',
      { blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: ['blink'] }] }] },
      'unknown_mark',
    ],
    [
      'indent too deep',
      { blocks: [{ type: 'paragraph', indent: 7, content: [] }] },
      'invalid_indent',
    ],
    [
      'negative indent',
      { blocks: [{ type: 'bulleted_list', indent: -1, content: [] }] },
      'invalid_indent',
    ],
    [
      'fractional indent',
      { blocks: [{ type: 'todo', indent: 1.5, content: [] }] },
      'invalid_indent',
    ],
    [
      'indent on a heading',
      { blocks: [{ type: 'heading1', indent: 1, content: [] }] },
      'invalid_block',
    ],
    [
      'bad link',
      {
        blocks: [{ type: 'paragraph', content: [{ type: 'link', href: 'ftp://x', content: [] }] }],
      },
      'invalid_link',
    ],
    ['image without file', { blocks: [{ type: 'image' }] }, 'invalid_block'],
    ['not a document', { items: [] }, 'invalid_block'],
    ['blocks not an array', { blocks: 'x' }, 'invalid_block'],
    [
      'extra inline key',
      { blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', color: 'red' }] }] },
      'invalid_block',
    ],
  ];
  it.each(cases)('refuses %s', (_name, raw, code) => {
    expect(() => parseBlockDocument(raw)).toThrow(expect.objectContaining({ status: 400, code }));
  });

  it('names the place of the error', () => {
    try {
      parseBlockDocument({
        blocks: [
          { type: 'paragraph', content: [] },
          { type: 'paragraph', content: [{ type: 'text', text: 'x', marks: ['bold', 'shiny'] }] },
        ],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ details: { path: '/blocks/blocks/1/content/0/marks/1' } });
    }
  });
});

describe('robustness', () => {
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
      expect(() => parseBlockDocument(parsed), text).not.toThrow();
      expect(() => renderMarkdown(parsed), text).not.toThrow();
    }
  });
});
