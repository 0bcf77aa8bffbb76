import {
  type Block,
  type BlockDocument,
  EDITOR_MARK,
  EDITOR_NODE,
  type EditorMark,
  type EditorNode,
  type Inline,
  type TextNode,
} from './document.js';

/** A text run as editor text nodes: its marks, and a line break for each newline. */
function textNodes(node: TextNode, extra: EditorMark[] = []): EditorNode[] {
  const marks = [...(node.marks ?? []).map((mark) => ({ type: EDITOR_MARK[mark] })), ...extra];
  return node.text.split('\n').flatMap((line, index) => {
    const parts: EditorNode[] = index === 0 ? [] : [{ type: 'hardBreak' }];
    if (line !== '')
      parts.push(
        marks.length === 0 ? { type: 'text', text: line } : { type: 'text', text: line, marks },
      );
    return parts;
  });
}

export function inlinesToEditor(inlines: readonly Inline[] | undefined): EditorNode[] {
  return (inlines ?? []).flatMap((inline) =>
    inline.type === 'text'
      ? textNodes(inline)
      : inline.content.flatMap((node) =>
          textNodes(node, [{ type: 'link', attrs: { href: inline.href } }]),
        ),
  );
}

function withContent(node: EditorNode, content: EditorNode[]): EditorNode {
  return content.length === 0 ? node : { ...node, content };
}

function blockToEditor(block: Block): EditorNode {
  const blockId = block.id ?? null;
  switch (block.type) {
    case 'heading1':
    case 'heading2':
    case 'heading3':
      return withContent(
        { type: 'heading', attrs: { level: Number(block.type.slice(-1)), blockId } },
        inlinesToEditor(block.content),
      );
    case 'code':
      return withContent(
        { type: EDITOR_NODE.code, attrs: { language: block.language ?? null, blockId } },
        block.text ? [{ type: 'text', text: block.text }] : [],
      );
    case 'divider':
      return { type: EDITOR_NODE.divider, attrs: { blockId } };
    case 'image':
      return {
        type: EDITOR_NODE.image,
        attrs: { fileId: block.fileId, caption: block.caption ?? null, blockId },
      };
    case 'todo':
      return withContent(
        {
          type: EDITOR_NODE.todo,
          attrs: { indent: block.indent ?? 0, checked: block.checked ?? false, blockId },
        },
        inlinesToEditor(block.content),
      );
    case 'callout':
      return withContent(
        {
          type: EDITOR_NODE.callout,
          attrs: { indent: block.indent ?? 0, icon: block.icon ?? null, blockId },
        },
        inlinesToEditor(block.content),
      );
    default:
      return withContent(
        { type: EDITOR_NODE[block.type], attrs: { indent: block.indent ?? 0, blockId } },
        inlinesToEditor(block.content),
      );
  }
}

/** The API's block document as the editor's document (never empty: one paragraph at least). */
export function toEditor(document: BlockDocument): EditorNode {
  const content = document.blocks.map(blockToEditor);
  return {
    type: 'doc',
    content:
      content.length === 0 ? [{ type: 'paragraph', attrs: { indent: 0, blockId: null } }] : content,
  };
}
