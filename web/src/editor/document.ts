import type { components } from '../api/schema.js';

/** The API's block document and its parts (the contract, from the generated types). */
export type BlockDocument = components['schemas']['BlockDocument'];
export type Block = components['schemas']['Block'];
export type Inline = components['schemas']['Inline'];
export type TextNode = components['schemas']['TextNode'];
export type Mark = components['schemas']['Mark'];

/** The editor's JSON (TipTap's `JSONContent`, declared here so the mapping needs no editor). */
export interface EditorMark {
  type: string;
  attrs?: Record<string, unknown>;
}
export interface EditorNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: EditorNode[];
  text?: string;
  marks?: EditorMark[];
}

/** The limits of the API's schema (src/content/items/block-schemas.ts). */
export const MAX_INDENT = 6;
export const MAX_TEXT = 100_000;
export const MARKS: readonly Mark[] = ['bold', 'italic', 'underline', 'strikethrough', 'code'];

/** The block types that take an indent (0 to MAX_INDENT). */
export const INDENTED = ['paragraph', 'bulleted_list', 'numbered_list', 'todo', 'quote', 'callout'];

/** Editor mark names by API mark (TipTap calls strikethrough `strike`). */
export const EDITOR_MARK: Record<Mark, string> = {
  bold: 'bold',
  italic: 'italic',
  underline: 'underline',
  strikethrough: 'strike',
  code: 'code',
};

/** Editor node names by API block type, where they differ (headings are one node with a level). */
export const EDITOR_NODE = {
  paragraph: 'paragraph',
  bulleted_list: 'bulletedList',
  numbered_list: 'numberedList',
  todo: 'todo',
  quote: 'quote',
  callout: 'callout',
  code: 'codeBlock',
  divider: 'horizontalRule',
  image: 'image',
} as const;

/** A link target the API accepts: an absolute http, https or mailto URL (as `blocks.ts` checks). */
export function isLinkHref(href: string): boolean {
  if (href.length > 2048) return false;
  try {
    return ['http:', 'https:', 'mailto:'].includes(new URL(href).protocol);
  } catch {
    return false;
  }
}
