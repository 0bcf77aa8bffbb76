import { describe, expect, it } from 'vitest';
import { bodyValidator } from '../../http/validation.js';
import { type Block, BlockDocument } from './block-schemas.js';
import { normalizeBlockDocument } from './blocks.js';
import { parseMarkdown } from './markdown-parse.js';
import { renderMarkdown } from './markdown-render.js';

/**
 * Markdown read into blocks: examples of the CommonMark and GFM specs whose
 * constructs map to the block document, each with the blocks it must give,
 * then documents that must come back unchanged through the renderer.
 */

const FILE = '0190d6e2-3c4b-7def-8123-456789abcdef';

const text = (
  value: string,
  ...marks: Array<'bold' | 'italic' | 'underline' | 'strikethrough' | 'code'>
) =>
  marks.length === 0
    ? { type: 'text' as const, text: value }
    : { type: 'text' as const, text: value, marks };
const paragraph = (
  ...content: Block extends infer _ ? ReturnType<typeof text>[] : never
): Block => ({
  type: 'paragraph',
  content,
});

const fixtures: Array<[string, string, Block[]]> = [
  ['bold italic with three stars', '***x***', [paragraph(text('x', 'bold', 'italic'))]],
  [
    'bold inside italic and the other way round',
    '*a **b** c* and **d *e***',
    [
      {
        type: 'paragraph',
        content: [
          text('a ', 'italic'),
          text('b', 'bold', 'italic'),
          text(' c', 'italic'),
          text(' and '),
          text('d ', 'bold'),
          text('e', 'bold', 'italic'),
        ],
      },
    ],
  ],
  ['intraword underscore is text', 'foo_bar_', [paragraph(text('foo_bar_'))]],
  ['a tilde fence', '~~~\n<\n >\n~~~', [{ type: 'code', text: '<\n >' }]],
  [
    'a fence with an info string',
    '```ruby\ndef foo(x)\n  return 3\nend\n```',
    [{ type: 'code', language: 'ruby', text: 'def foo(x)\n  return 3\nend' }],
  ],
  [
    'an indented code block',
    '    a simple\n      indented code block',
    [{ type: 'code', text: 'a simple\n  indented code block' }],
  ],
  [
    'a lazy quote continuation',
    '> bar\nbaz\n> foo',
    [{ type: 'quote', content: [text('bar\nbaz\nfoo')] }],
  ],
  ['a quote of two paragraphs', '> a\n>\n> b', [{ type: 'quote', content: [text('a\n\nb')] }]],
  [
    'a quote holding a list',
    '> a\n>\n> - b',
    [
      { type: 'quote', content: [text('a')] },
      { type: 'bulleted_list', content: [text('b')] },
    ],
  ],
  [
    'a callout',
    '> [!callout 💡] **tip** here',
    [{ type: 'callout', icon: '💡', content: [text('tip', 'bold'), text(' here')] }],
  ],
  [
    'an autolink',
    '<https://foo.bar.baz/test?q=hello&id=22&boolean>',
    [
      {
        type: 'paragraph',
        content: [
          {
            type: 'link',
            href: 'https://foo.bar.baz/test?q=hello&id=22&boolean',
            content: [text('https://foo.bar.baz/test?q=hello&id=22&boolean')],
          },
        ],
      },
    ],
  ],
  [
    'an e-mail autolink',
    '<foo@bar.example.com>',
    [
      {
        type: 'paragraph',
        content: [
          {
            type: 'link',
            href: 'mailto:foo@bar.example.com',
            content: [text('foo@bar.example.com')],
          },
        ],
      },
    ],
  ],
  [
    'ATX headings of every depth',
    '# a\n## b\n### c\n#### d\n##### e\n###### f\n####### g',
    [
      { type: 'heading1', content: [text('a')] },
      { type: 'heading2', content: [text('b')] },
      { type: 'heading3', content: [text('c')] },
      { type: 'heading3', content: [text('d')] },
      { type: 'heading3', content: [text('e')] },
      { type: 'heading3', content: [text('f')] },
      paragraph(text('####### g')),
    ],
  ],
  [
    'inline content in a heading',
    '# foo *bar* \\*baz\\*',
    [{ type: 'heading1', content: [text('foo '), text('bar', 'italic'), text(' *baz*')] }],
  ],
  [
    'setext headings',
    'Foo *bar*\n=========\n\nFoo *bar*\n---------',
    [
      { type: 'heading1', content: [text('Foo '), text('bar', 'italic')] },
      { type: 'heading2', content: [text('Foo '), text('bar', 'italic')] },
    ],
  ],
  [
    'thematic breaks',
    '***\n---\n___\n\n+++',
    [{ type: 'divider' }, { type: 'divider' }, { type: 'divider' }, paragraph(text('+++'))],
  ],
  [
    'a change of bullet starts a new list',
    '- foo\n- bar\n+ baz',
    [
      { type: 'bulleted_list', content: [text('foo')] },
      { type: 'bulleted_list', content: [text('bar')] },
      { type: 'bulleted_list', content: [text('baz')] },
    ],
  ],
  [
    'ordered lists',
    '1. foo\n2. bar\n3) baz',
    [
      { type: 'numbered_list', content: [text('foo')] },
      { type: 'numbered_list', content: [text('bar')] },
      { type: 'numbered_list', content: [text('baz')] },
    ],
  ],
  [
    'nested lists',
    '- a\n  - b\n    - c\n1. d\n   1. e',
    [
      { type: 'bulleted_list', content: [text('a')] },
      { type: 'bulleted_list', indent: 1, content: [text('b')] },
      { type: 'bulleted_list', indent: 2, content: [text('c')] },
      { type: 'numbered_list', content: [text('d')] },
      { type: 'numbered_list', indent: 1, content: [text('e')] },
    ],
  ],
  [
    'a list item of two paragraphs',
    '1. a\n\n   b',
    [
      { type: 'numbered_list', content: [text('a')] },
      { type: 'paragraph', indent: 1, content: [text('b')] },
    ],
  ],
  [
    'task list items',
    '- [ ] foo\n- [x] bar',
    [
      { type: 'todo', checked: false, content: [text('foo')] },
      { type: 'todo', checked: true, content: [text('bar')] },
    ],
  ],
  [
    'strikethrough',
    '~~Hi~~ Hello, world!',
    [paragraph(text('Hi', 'strikethrough'), text(' Hello, world!'))],
  ],
  ['a code span', '`` foo ` bar ``', [paragraph(text('foo ` bar', 'code'))]],
  ['hard line breaks', 'foo  \nbar\\\nbaz', [paragraph(text('foo\nbar\nbaz'))]],
  ['entity references', '&amp; &copy; &#35;', [paragraph(text('& © #'))]],
  ['backslash escapes', '\\*not emphasized*', [paragraph(text('*not emphasized*'))]],
  ['underline', 'a <u>b</u> c', [paragraph(text('a '), text('b', 'underline'), text(' c'))]],
  ['other inline HTML stays text', 'a <span>b</span>', [paragraph(text('a <span>b</span>'))]],
  [
    'a link with a title, and one to a relative target',
    '[a](https://x.example "title") [b](/uri)',
    [
      {
        type: 'paragraph',
        content: [{ type: 'link', href: 'https://x.example', content: [text('a')] }, text(' b')],
      },
    ],
  ],
  [
    'a reference link',
    '[foo][bar]\n\n[bar]: https://example.com "t"',
    [
      {
        type: 'paragraph',
        content: [{ type: 'link', href: 'https://example.com', content: [text('foo')] }],
      },
    ],
  ],
  [
    'a workspace image, and an image elsewhere',
    `![A picture](file:${FILE})\n\n![foo](https://x.example/a.png)`,
    [
      { type: 'image', fileId: FILE, caption: [text('A picture')] },
      {
        type: 'paragraph',
        content: [{ type: 'link', href: 'https://x.example/a.png', content: [text('foo')] }],
      },
    ],
  ],
  [
    'a table, row by row',
    '| a | b |\n| - | - |\n| c | *d* |',
    [paragraph(text('a | b')), paragraph(text('c | '), text('d', 'italic'))],
  ],
  ['an HTML block, as text', '<div>\n*hi*\n</div>', [paragraph(text('<div>\n*hi*\n</div>'))]],
];

describe('Markdown read with mdast', () => {
  const check = bodyValidator(BlockDocument);
  it.each(fixtures)('%s', (_name, markdown, blocks) => {
    const parsed = parseMarkdown(markdown);
    expect(parsed).toEqual({ blocks });
    expect(check(parsed), JSON.stringify(check.errors)).toBe(true);
    expect(normalizeBlockDocument(parsed)).toEqual(parsed);
  });
});

const roundTrips: Array<[string, Block[]]> = [
  [
    'marks side by side and nested',
    [
      paragraph(
        text('a'),
        text('b', 'bold'),
        text('c', 'italic'),
        text('d', 'bold', 'italic'),
        text('e', 'strikethrough'),
        text('f', 'underline'),
        text('g*h', 'code'),
      ),
    ],
  ],
  [
    'text that looks like Markdown',
    [
      paragraph(
        text(
          '# no\n- no\n1. no\n2) no\n> no\n= no\n+ no\n| no\n***\n&amp; <u>x</u> `y` [z](w) ~~v~~',
        ),
      ),
    ],
  ],
  ['spaces at the edges of lines', [paragraph(text('  two\n    four\ntrailing  '))]],
  [
    'links with awkward targets',
    [
      {
        type: 'paragraph',
        content: [
          {
            type: 'link',
            href: 'https://example.com/a_(b) c?d=<e>&f',
            content: [text('x', 'bold')],
          },
          text(' and '),
          { type: 'link', href: 'mailto:a@example.com', content: [text('mail')] },
        ],
      },
    ],
  ],
  [
    'lists nested under every kind of item',
    [
      { type: 'numbered_list', content: [text('one')] },
      { type: 'bulleted_list', indent: 1, content: [text('under one')] },
      { type: 'numbered_list', content: [text('two')] },
      { type: 'paragraph', indent: 1, content: [text('more of two')] },
      { type: 'todo', checked: false, indent: 1, content: [text('task')] },
      { type: 'todo', checked: true, indent: 2, content: [text('subtask')] },
      { type: 'quote', indent: 2, content: [text('quoted\nin a task')] },
      { type: 'bulleted_list', content: [text('back out')] },
    ],
  ],
  [
    'quotes, callouts, code and dividers',
    [
      { type: 'quote', content: [text('a\n\nb')] },
      { type: 'quote', content: [text('c')] },
      { type: 'callout', content: [text('no icon\nsecond line')] },
      { type: 'code', text: '```\ninner\n```', language: 'md' },
      { type: 'code', text: '' },
      { type: 'divider' },
      { type: 'image', fileId: FILE },
      { type: 'heading3', content: [text('end', 'italic')] },
    ],
  ],
];

describe('blocks through the renderer and back', () => {
  it.each(roundTrips)('%s', (_name, blocks) => {
    const markdown = renderMarkdown({ blocks });
    expect(parseMarkdown(markdown), markdown).toEqual({ blocks });
  });

  it('renders what it reads from ordinary Markdown to Markdown that reads the same', () => {
    for (const [, markdown] of fixtures) {
      const once = parseMarkdown(markdown);
      expect(parseMarkdown(renderMarkdown(once)), markdown).toEqual(once);
    }
  });
});
