import { badRequest } from '../../http/errors.js';
import type { Block, BlockDocument, Inline, TextNode } from './block-schemas.js';

/**
 * What the block document schema (`block-schemas.ts`) cannot say, for a
 * document the schema accepted: a link target must parse as an absolute
 * http, https or mailto URL. And the stored form: an indent of 0 is left
 * out, a mark named twice counts once, an empty mark list is left out, and
 * file ids are lowercase.
 */

export function isLinkHref(href: string): boolean {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol);
  } catch {
    return false;
  }
}

function normalizeText({ text, marks }: TextNode): TextNode {
  const distinct = [...new Set(marks ?? [])];
  return distinct.length === 0 ? { type: 'text', text } : { type: 'text', text, marks: distinct };
}

function normalizeInlines(inlines: readonly Inline[], path: string): Inline[] {
  return inlines.map((node, index) => {
    if (node.type === 'text') return normalizeText(node);
    if (!isLinkHref(node.href)) {
      throw badRequest('invalid_link', 'A link is an absolute http, https or mailto URL', {
        path: `${path}/${index}/href`,
      });
    }
    return { type: 'link', href: node.href, content: node.content.map(normalizeText) };
  });
}

function normalizeBlock(block: Block, path: string): Block {
  const copy: Block = { ...block };
  if ('indent' in copy && copy.indent === 0) delete copy.indent;
  if ('content' in copy && copy.content !== undefined) {
    copy.content = normalizeInlines(copy.content, `${path}/content`);
  }
  if (copy.type === 'image') {
    copy.fileId = copy.fileId.toLowerCase();
    if (copy.caption !== undefined)
      copy.caption = normalizeInlines(copy.caption, `${path}/caption`);
  }
  return copy;
}

/**
 * Checks links and normalizes a document the schema accepted; error paths
 * are those of an item body (`/blocks/blocks/...`). Image file ids are
 * checked against the workspace by the caller.
 */
export function normalizeBlockDocument(document: BlockDocument): BlockDocument {
  return {
    blocks: document.blocks.map((block, index) => normalizeBlock(block, `/blocks/blocks/${index}`)),
  };
}

export function imageFileIds(document: BlockDocument): string[] {
  return [
    ...new Set(document.blocks.flatMap((block) => (block.type === 'image' ? [block.fileId] : []))),
  ];
}
