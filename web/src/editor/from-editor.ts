import {
  type Block,
  type BlockDocument,
  EDITOR_MARK,
  type EditorNode,
  type Inline,
  isLinkHref,
  MARKS,
  MAX_INDENT,
  MAX_TEXT,
  type Mark,
  type TextNode,
} from './document.js';

/**
 * The editor's document as a block document the API accepts, whatever the
 * editor holds: unknown nodes become paragraphs (or their blocks), unknown
 * marks and links the API would refuse are dropped (their text kept),
 * indents are clamped to 0..6, long runs are split, a client id sent twice
 * is kept once. The stored form is produced (indent 0, no marks, empty
 * content and `checked: false` left out), so a round trip is stable.
 */

interface Piece {
  text: string;
  marks: Mark[];
  href: string | null;
}

const MARK_BY_EDITOR = new Map(MARKS.map((mark) => [EDITOR_MARK[mark], mark]));

function pieceOf(node: EditorNode, previous: Piece | undefined): Piece | undefined {
  // A line break carries the marks of the text before it, so "a⏎b" in bold stays one run.
  if (node.type === 'hardBreak') {
    return { text: '\n', marks: previous?.marks ?? [], href: previous?.href ?? null };
  }
  if (node.type !== 'text' || !node.text) return undefined;
  const names = new Set((node.marks ?? []).map((mark) => MARK_BY_EDITOR.get(mark.type)));
  const marks = MARKS.filter((mark) => names.has(mark));
  const link = (node.marks ?? []).find((mark) => mark.type === 'link');
  const href = link?.attrs?.href;
  return {
    text: node.text,
    marks,
    href: typeof href === 'string' && isLinkHref(href) ? href : null,
  };
}

function sameStyle(a: Piece, b: Piece): boolean {
  return a.href === b.href && a.marks.join() === b.marks.join();
}

function textNode(text: string, marks: Mark[]): TextNode {
  return marks.length === 0 ? { type: 'text', text } : { type: 'text', text, marks };
}

/** A run longer than the API's limit for one text node, as several nodes. */
function chunks(piece: Piece): TextNode[] {
  const nodes: TextNode[] = [];
  for (let start = 0; start < piece.text.length; start += MAX_TEXT) {
    nodes.push(textNode(piece.text.slice(start, start + MAX_TEXT), piece.marks));
  }
  return nodes;
}

/** Text and line breaks (nested anywhere) as the API's inlines: runs merged, links grouped. */
export function inlinesFromEditor(nodes: readonly EditorNode[] | undefined): Inline[] {
  const pieces: Piece[] = [];
  for (const node of flattenInline(nodes ?? [])) {
    const piece = pieceOf(node, pieces.at(-1));
    if (piece === undefined) continue;
    const last = pieces.at(-1);
    if (last !== undefined && sameStyle(last, piece)) last.text += piece.text;
    else pieces.push(piece);
  }
  const inlines: Inline[] = [];
  for (const piece of pieces) {
    const last = inlines.at(-1);
    if (piece.href === null) inlines.push(...chunks(piece));
    else if (last?.type === 'link' && last.href === piece.href) last.content.push(...chunks(piece));
    else inlines.push({ type: 'link', href: piece.href, content: chunks(piece) });
  }
  return inlines;
}

function flattenInline(nodes: readonly EditorNode[]): EditorNode[] {
  return nodes.flatMap((node) =>
    node.type === 'text' || node.type === 'hardBreak' ? [node] : flattenInline(node.content ?? []),
  );
}

function indentOf(node: EditorNode): { indent?: number } {
  const raw = Number(node.attrs?.indent ?? 0);
  const indent = Number.isFinite(raw) ? Math.min(MAX_INDENT, Math.max(0, Math.trunc(raw))) : 0;
  return indent === 0 ? {} : { indent };
}

function contentOf(node: EditorNode): { content?: Inline[] } {
  const content = inlinesFromEditor(node.content);
  return content.length === 0 ? {} : { content };
}

function optionalText(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value !== '' && value.length <= max ? value : undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isInlineNode(node: EditorNode): boolean {
  return node.type === 'text' || node.type === 'hardBreak';
}

/** One editor block as API blocks (none, one, or several for an unknown container). */
function blocksOf(node: EditorNode): Block[] {
  const indented = { ...indentOf(node), ...contentOf(node) };
  switch (node.type) {
    case 'paragraph':
      return [{ type: 'paragraph', ...indented }];
    case 'heading': {
      const level = Math.min(3, Math.max(1, Number(node.attrs?.level) || 1));
      const type = level === 1 ? 'heading1' : level === 2 ? 'heading2' : 'heading3';
      return [{ type, ...contentOf(node) }];
    }
    case 'bulletedList':
      return [{ type: 'bulleted_list', ...indented }];
    case 'numberedList':
      return [{ type: 'numbered_list', ...indented }];
    case 'quote':
      return [{ type: 'quote', ...indented }];
    case 'todo':
      return [
        { type: 'todo', ...indented, ...(node.attrs?.checked === true ? { checked: true } : {}) },
      ];
    case 'callout': {
      const icon = optionalText(node.attrs?.icon, 16);
      return [{ type: 'callout', ...indented, ...(icon === undefined ? {} : { icon }) }];
    }
    case 'codeBlock': {
      const text = flattenInline(node.content ?? [])
        .map((child) => (child.type === 'hardBreak' ? '\n' : (child.text ?? '')))
        .join('');
      const language = optionalText(node.attrs?.language, 40);
      return [
        {
          type: 'code',
          ...(text === '' ? {} : { text }),
          ...(language === undefined ? {} : { language }),
        },
      ];
    }
    case 'horizontalRule':
      return [{ type: 'divider' }];
    case 'image': {
      const fileId = node.attrs?.fileId;
      if (typeof fileId !== 'string' || !UUID.test(fileId)) return [];
      const caption = Array.isArray(node.attrs?.caption)
        ? inlinesFromEditor(captionNodes(node.attrs.caption))
        : [];
      return [
        {
          type: 'image',
          fileId: fileId.toLowerCase(),
          ...(caption.length === 0 ? {} : { caption }),
        },
      ];
    }
    default: {
      // Not a block of the API: a container of blocks is unwrapped, anything else kept as a paragraph.
      const children = node.content ?? [];
      if (children.length > 0 && !children.every(isInlineNode)) return children.flatMap(blocksOf);
      return [{ type: 'paragraph', ...contentOf(node) }];
    }
  }
}

function isMark(value: unknown): value is Mark {
  return MARKS.some((mark) => mark === value);
}

/** A caption held as API inlines in the image node's attributes, read back as editor text. */
function captionNodes(caption: unknown[]): EditorNode[] {
  return caption.flatMap((inline): EditorNode[] => {
    if (typeof inline !== 'object' || inline === null || !('type' in inline)) return [];
    if (inline.type === 'text' && 'text' in inline && typeof inline.text === 'string') {
      const marks = 'marks' in inline && Array.isArray(inline.marks) ? inline.marks : [];
      const known = marks.filter(isMark).map((mark) => ({ type: EDITOR_MARK[mark] }));
      return [{ type: 'text', text: inline.text, marks: known }];
    }
    if (inline.type === 'link' && 'content' in inline && Array.isArray(inline.content)) {
      const href = 'href' in inline ? inline.href : undefined;
      return captionNodes(inline.content).map((node) => ({
        ...node,
        marks: [...(node.marks ?? []), { type: 'link', attrs: { href } }],
      }));
    }
    return [];
  });
}

function isEmptyParagraph(block: Block): boolean {
  return (
    block.type === 'paragraph' &&
    block.content === undefined &&
    block.indent === undefined &&
    block.id === undefined
  );
}

/** The editor's document as the API's block document (see the module comment). */
export function fromEditor(doc: EditorNode): BlockDocument {
  const seen = new Set<string>();
  const blocks = (doc.content ?? []).flatMap((node) =>
    blocksOf(node).map((block): Block => {
      const id = node.attrs?.blockId;
      if (typeof id !== 'string' || id === '' || id.length > 64 || seen.has(id)) return block;
      seen.add(id);
      return { ...block, id };
    }),
  );
  // The editor keeps an empty paragraph at the end to type in; it is not part of the body.
  for (
    let last = blocks.at(-1);
    last !== undefined && isEmptyParagraph(last);
    last = blocks.at(-1)
  ) {
    blocks.pop();
  }
  return { blocks };
}
