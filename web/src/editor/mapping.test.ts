import { describe, expect, it } from 'vitest';
import type { BlockDocument, EditorNode } from './document.js';
import { fromEditor } from './from-editor.js';
import { toEditor } from './to-editor.js';

const FILE = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

/** Every block type, mark, link, indent and attribute the API stores, in its stored form. */
const everything: BlockDocument = {
  blocks: [
    { type: 'heading1', id: 'h1', content: [{ type: 'text', text: 'Title' }] },
    { type: 'heading2', content: [{ type: 'text', text: 'Sub' }] },
    { type: 'heading3', content: [{ type: 'text', text: 'Subsub' }] },
    {
      type: 'paragraph',
      indent: 2,
      content: [
        { type: 'text', text: 'plain ' },
        {
          type: 'text',
          text: 'all',
          marks: ['bold', 'italic', 'underline', 'strikethrough', 'code'],
        },
        { type: 'text', text: ' line\nbreak' },
        {
          type: 'link',
          href: 'https://example.com/',
          content: [
            { type: 'text', text: 'a ' },
            { type: 'text', text: 'link', marks: ['bold'] },
          ],
        },
      ],
    },
    { type: 'bulleted_list', content: [{ type: 'text', text: 'one' }] },
    { type: 'bulleted_list', indent: 6, content: [{ type: 'text', text: 'deep' }] },
    { type: 'numbered_list', content: [{ type: 'text', text: 'first' }] },
    { type: 'todo', checked: true, content: [{ type: 'text', text: 'done' }] },
    { type: 'todo', indent: 1 },
    { type: 'quote', content: [{ type: 'text', text: 'said' }] },
    { type: 'code', text: 'let a = 1;\nlet b = 2;', language: 'ts' },
    { type: 'code' },
    { type: 'divider' },
    {
      type: 'image',
      fileId: FILE,
      caption: [{ type: 'text', text: 'A picture', marks: ['italic'] }],
    },
    { type: 'callout', icon: '💡', content: [{ type: 'text', text: 'Note' }] },
    { type: 'paragraph' },
    { type: 'paragraph', content: [{ type: 'text', text: 'end' }] },
  ],
};

const doc = (...content: EditorNode[]): EditorNode => ({ type: 'doc', content });
const p = (content: EditorNode[], attrs: Record<string, unknown> = {}): EditorNode => ({
  type: 'paragraph',
  attrs,
  content,
});
const text = (value: string, ...marks: EditorNode['marks'] & object): EditorNode => ({
  type: 'text',
  text: value,
  marks,
});

describe('block document and editor JSON', () => {
  it('round-trips every block type, mark, link, indent and attribute unchanged', () => {
    expect(fromEditor(toEditor(everything))).toEqual(everything);
  });

  it('maps blocks to the editor nodes: headings by level, marks by the editor names, breaks', () => {
    const editor = toEditor(everything);
    expect(editor.content?.[0]).toEqual({
      type: 'heading',
      attrs: { level: 1, blockId: 'h1' },
      content: [{ type: 'text', text: 'Title' }],
    });
    const paragraph = editor.content?.[3];
    expect(paragraph?.attrs).toEqual({ indent: 2, blockId: null });
    expect(paragraph?.content?.map((node) => node.type)).toEqual([
      'text',
      'text',
      'text',
      'hardBreak',
      'text',
      'text',
      'text',
    ]);
    expect(paragraph?.content?.[1]?.marks?.map((mark) => mark.type)).toEqual([
      'bold',
      'italic',
      'underline',
      'strike',
      'code',
    ]);
    expect(paragraph?.content?.[6]?.marks).toEqual([
      { type: 'bold' },
      { type: 'link', attrs: { href: 'https://example.com/' } },
    ]);
  });

  it('gives an empty body one paragraph to type in, and leaves that paragraph out again', () => {
    const editor = toEditor({ blocks: [] });
    expect(editor).toEqual(doc({ type: 'paragraph', attrs: { indent: 0, blockId: null } }));
    expect(fromEditor(editor)).toEqual({ blocks: [] });
    expect(fromEditor(doc(p([text('a')]), p([]), p([])))).toEqual({
      blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'a' }] }],
    });
  });

  it('clamps indents to the API range and leaves indent 0 out', () => {
    const blocks = fromEditor(
      doc(
        p([text('a')], { indent: 9 }),
        p([text('b')], { indent: -3 }),
        p([text('c')], { indent: 2.7 }),
        p([text('d')], { indent: 'x' }),
      ),
    ).blocks;
    expect(blocks.map((block) => ('indent' in block ? block.indent : undefined))).toEqual([
      6,
      undefined,
      2,
      undefined,
    ]);
  });

  it('drops marks and links the API refuses, keeping their text', () => {
    const blocks = fromEditor(
      doc(
        p([
          text('hi', { type: 'highlight' }, { type: 'bold' }, { type: 'bold' }),
          text(' js', { type: 'link', attrs: { href: 'javascript:alert(1)' } }),
          text(' rel', { type: 'link', attrs: { href: '/relative' } }),
          text(' mail', { type: 'link', attrs: { href: 'mailto:a@b.co' } }),
        ]),
      ),
    ).blocks;
    expect(blocks).toEqual([
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'hi', marks: ['bold'] },
          { type: 'text', text: ' js rel' },
          { type: 'link', href: 'mailto:a@b.co', content: [{ type: 'text', text: ' mail' }] },
        ],
      },
    ]);
  });

  it('turns nodes that are not API blocks into paragraphs or unwraps them', () => {
    const blocks = fromEditor(
      doc(
        { type: 'bulletList', content: [{ type: 'listItem', content: [p([text('item')])] }] },
        { type: 'table', content: [{ type: 'cell', content: [text('cell')] }] },
        { type: 'image', attrs: { fileId: 'not-a-uuid' } },
        { type: 'heading', attrs: { level: 5 }, content: [text('low')] },
      ),
    ).blocks;
    expect(blocks).toEqual([
      { type: 'paragraph', content: [{ type: 'text', text: 'item' }] },
      { type: 'paragraph', content: [{ type: 'text', text: 'cell' }] },
      { type: 'heading3', content: [{ type: 'text', text: 'low' }] },
    ]);
  });

  it('keeps a client id once (a split block copies it), splits runs past 100,000 characters', () => {
    const long = 'x'.repeat(100_001);
    const blocks = fromEditor(
      doc(p([text('a')], { blockId: 'same' }), p([text(long)], { blockId: 'same' })),
    ).blocks;
    expect(blocks[0]).toMatchObject({ id: 'same' });
    expect(blocks[1]).not.toHaveProperty('id');
    expect(blocks[1]).toMatchObject({
      content: [
        { type: 'text', text: 'x'.repeat(100_000) },
        { type: 'text', text: 'x' },
      ],
    });
  });

  it('merges runs of one style and keeps a bold line break inside the bold run', () => {
    const blocks = fromEditor(
      doc(
        p([
          text('a', { type: 'bold' }),
          { type: 'hardBreak' },
          text('b', { type: 'bold' }),
          text('c'),
        ]),
      ),
    ).blocks;
    expect(blocks).toEqual([
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'a\nb', marks: ['bold'] },
          { type: 'text', text: 'c' },
        ],
      },
    ]);
  });
});
