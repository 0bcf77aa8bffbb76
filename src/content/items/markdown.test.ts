import { describe, expect, it } from 'vitest';
import { bodyValidator } from '../../http/validation.js';
import { BlockDocument, MAX_BLOCKS } from './block-schemas.js';
import { normalizeBlockDocument } from './blocks.js';
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
        { type: 'text', text: ' with snake_case and 2 * 3 [not a link] ' },
        { type: 'text', text: 'gone', marks: ['strikethrough'] },
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
    { type: 'todo', checked: false, indent: 1, content: [{ type: 'text', text: 'open' }] },
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
    expect(parsed.blocks[0]).toEqual({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Intro ' },
        { type: 'text', text: 'italic', marks: ['italic'] },
        { type: 'text', text: ' and ' },
        { type: 'text', text: 'not bold', marks: ['bold'] },
        { type: 'text', text: ' here\ncontinued' },
      ],
    });
    expect(parsed.blocks[3]).toMatchObject({ type: 'bulleted_list', indent: 1 });
    expect(parsed.blocks[4]).toEqual({ type: 'quote', content: [{ type: 'text', text: 'a\nb' }] });
    expect(parsed.blocks[6]).toEqual({ type: 'code', text: 'plain' });
  });

  it('keeps unsafe link targets as text', () => {
    const parsed = parseMarkdown('[x](javascript:alert(1)) [y](https://ok.example)');
    const [paragraph] = parsed.blocks;
    expect(paragraph?.type).toBe('paragraph');
    const links = paragraph?.type === 'paragraph' ? paragraph.content : undefined;
    expect(links?.filter((node) => node.type === 'link')).toEqual([
      { type: 'link', href: 'https://ok.example', content: [{ type: 'text', text: 'y' }] },
    ]);
  });

  it('produces documents the block schema accepts, already normalized', () => {
    const parsed = parseMarkdown(renderMarkdown(document));
    expect(bodyValidator(BlockDocument)(parsed)).toBe(true);
    expect(normalizeBlockDocument(parsed)).toEqual(document);
  });
});

describe('block document schema', () => {
  const check = bodyValidator(BlockDocument);
  const cases: Array<[string, unknown, string, string]> = [
    ['unknown type', { blocks: [{ type: 'table' }] }, 'unknown_block_type', '/blocks/0'],
    ['no type', { blocks: [{ content: [] }] }, 'unknown_block_type', '/blocks/0'],
    [
      'unknown mark',
      { blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', marks: ['blink'] }] }] },
      'unknown_mark',
      '/blocks/0/content/0/marks/0',
    ],
    [
      'indent too deep',
      { blocks: [{ type: 'paragraph', indent: 7, content: [] }] },
      'invalid_indent',
      '/blocks/0/indent',
    ],
    [
      'negative indent',
      { blocks: [{ type: 'bulleted_list', indent: -1, content: [] }] },
      'invalid_indent',
      '/blocks/0/indent',
    ],
    [
      'fractional indent',
      { blocks: [{ type: 'todo', indent: 1.5, content: [] }] },
      'invalid_indent',
      '/blocks/0/indent',
    ],
    [
      'indent on a heading',
      { blocks: [{ type: 'heading1', indent: 1, content: [] }] },
      'invalid_block',
      '/blocks/0',
    ],
    ['image without file', { blocks: [{ type: 'image' }] }, 'invalid_block', '/blocks/0'],
    [
      'image with a bad file id',
      { blocks: [{ type: 'image', fileId: 'nope' }] },
      'invalid_block',
      '/blocks/0/fileId',
    ],
    ['not a document', { items: [] }, 'invalid_block', ''],
    ['blocks not an array', { blocks: 'x' }, 'invalid_block', '/blocks'],
    [
      'too many blocks',
      { blocks: Array.from({ length: MAX_BLOCKS + 1 }, () => ({ type: 'divider' })) },
      'invalid_block',
      '/blocks',
    ],
    [
      'extra inline key',
      { blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'x', color: 'red' }] }] },
      'invalid_block',
      '/blocks/0/content/0',
    ],
    [
      'unknown inline type',
      { blocks: [{ type: 'quote', content: [{ type: 'mention', text: 'x' }] }] },
      'invalid_block',
      '/blocks/0/content/0',
    ],
    [
      'link without content',
      { blocks: [{ type: 'paragraph', content: [{ type: 'link', href: 'https://x.example' }] }] },
      'invalid_block',
      '/blocks/0/content/0',
    ],
    [
      'text too long',
      { blocks: [{ type: 'heading2', content: [{ type: 'text', text: 'x'.repeat(100_001) }] }] },
      'invalid_block',
      '/blocks/0/content/0/text',
    ],
  ];
  it.each(cases)('refuses %s with its code, at its place', (_name, raw, code, path) => {
    expect(check(raw)).toBe(false);
    expect(check.errors?.[0]).toMatchObject({ code, instancePath: path });
  });

  it('names the block types an unknown one could have been', () => {
    check({ blocks: [{ type: 'table' }] });
    expect(check.errors?.[0]?.params).toMatchObject({
      tag: 'type',
      allowedValues: expect.arrayContaining(['paragraph', 'todo', 'image', 'callout']),
    });
  });

  it('accepts every block type with every key it takes', () => {
    expect(check(document), JSON.stringify(check.errors)).toBe(true);
    expect(check({ blocks: [] })).toBe(true);
    expect(check({ blocks: [{ type: 'code', id: 'b1', language: 'ts' }] })).toBe(true);
  });
});

describe('block normalization', () => {
  it('stores the canonical form: no indent 0, marks once, no empty marks, lowercase file ids', () => {
    const upper = FILE.toUpperCase();
    expect(
      normalizeBlockDocument({
        blocks: [
          {
            type: 'paragraph',
            indent: 0,
            content: [
              { type: 'text', text: 'a', marks: ['bold', 'italic', 'bold'] },
              { type: 'text', text: 'b', marks: [] },
              {
                type: 'link',
                href: 'mailto:a@example.com',
                content: [{ type: 'text', text: 'c', marks: ['code', 'code'] }],
              },
            ],
          },
          { type: 'todo', id: 'keep', indent: 2, checked: false },
          { type: 'image', fileId: upper, caption: [{ type: 'text', text: 'd', marks: [] }] },
        ],
      }),
    ).toEqual({
      blocks: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'a', marks: ['bold', 'italic'] },
            { type: 'text', text: 'b' },
            {
              type: 'link',
              href: 'mailto:a@example.com',
              content: [{ type: 'text', text: 'c', marks: ['code'] }],
            },
          ],
        },
        { type: 'todo', id: 'keep', indent: 2, checked: false },
        { type: 'image', fileId: FILE, caption: [{ type: 'text', text: 'd' }] },
      ],
    });
  });

  it.each([
    ['ftp://x', '/blocks/blocks/1/content/0/href'],
    ['/relative', '/blocks/blocks/1/content/0/href'],
    ['javascript:alert(1)', '/blocks/blocks/1/content/0/href'],
  ])('refuses the link target %s, naming its place', (href, path) => {
    const raw: BlockDocument = {
      blocks: [
        { type: 'paragraph', content: [] },
        { type: 'paragraph', content: [{ type: 'link', href, content: [] }] },
      ],
    };
    expect(() => normalizeBlockDocument(raw)).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_link', details: { path } }),
    );
  });

  it('checks link targets in image captions too', () => {
    const raw: BlockDocument = {
      blocks: [
        {
          type: 'image',
          fileId: FILE,
          caption: [{ type: 'link', href: 'file:///etc/passwd', content: [] }],
        },
      ],
    };
    expect(() => normalizeBlockDocument(raw)).toThrow(
      expect.objectContaining({
        code: 'invalid_link',
        details: { path: '/blocks/blocks/0/caption/0/href' },
      }),
    );
  });
});
