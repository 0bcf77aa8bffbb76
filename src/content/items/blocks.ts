import type { CodeWithStatus } from '../../http/error-codes.js';
import { badRequest } from '../../http/errors.js';
import { UUID_PATTERN } from '../../http/schemas.js';

/**
 * The rich body of an item: `{blocks: [...]}`. Block types, the five marks
 * and the indent range are closed lists; anything else is refused with 400.
 */
export const BLOCK_TYPES = [
  'paragraph',
  'heading1',
  'heading2',
  'heading3',
  'bulleted_list',
  'numbered_list',
  'todo',
  'quote',
  'code',
  'divider',
  'image',
  'callout',
] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const MARKS = ['bold', 'italic', 'underline', 'strikethrough', 'code'] as const;
export type Mark = (typeof MARKS)[number];

export const MAX_INDENT = 6;
export const MAX_BLOCKS = 5000;

export interface TextNode {
  type: 'text';
  text: string;
  marks?: Mark[];
}
export interface LinkNode {
  type: 'link';
  href: string;
  content: TextNode[];
}
export type Inline = TextNode | LinkNode;

export interface Block {
  type: BlockType;
  id?: string;
  indent?: number;
  content?: Inline[];
  checked?: boolean;
  language?: string;
  text?: string;
  fileId?: string;
  caption?: Inline[];
  icon?: string;
}

export type BlockDocument = {
  blocks: Block[];
};

/** Which keys each block type takes, besides `type` and `id`. */
const BLOCK_KEYS: Record<BlockType, readonly string[]> = {
  paragraph: ['content', 'indent'],
  heading1: ['content'],
  heading2: ['content'],
  heading3: ['content'],
  bulleted_list: ['content', 'indent'],
  numbered_list: ['content', 'indent'],
  todo: ['content', 'indent', 'checked'],
  quote: ['content', 'indent'],
  code: ['text', 'language'],
  divider: [],
  image: ['fileId', 'caption'],
  callout: ['content', 'indent', 'icon'],
};

const uuid = new RegExp(UUID_PATTERN);

type Json = Record<string, unknown>;

function refuse(code: CodeWithStatus<400>, path: string, message: string): Error {
  return badRequest(code, message, { path });
}

function asObject(value: unknown, path: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw refuse('invalid_block', path, 'Expected an object');
  }
  return value as Json;
}

function string(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string' || value.length > max) {
    throw refuse('invalid_block', path, `Expected a string of at most ${max} characters`);
  }
  return value;
}

export function isLinkHref(href: string): boolean {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol);
  } catch {
    return false;
  }
}

function parseText(raw: unknown, path: string): TextNode {
  const node = asObject(raw, path);
  for (const key of Object.keys(node)) {
    if (!['type', 'text', 'marks'].includes(key))
      throw refuse('invalid_block', `${path}/${key}`, `Unknown property "${key}"`);
  }
  if (node.type !== 'text')
    throw refuse('invalid_block', `${path}/type`, 'Expected an inline of type "text"');
  const text = string(node.text, `${path}/text`, 100_000);
  if (node.marks === undefined) return { type: 'text', text };
  if (!Array.isArray(node.marks))
    throw refuse('invalid_block', `${path}/marks`, 'Expected an array of marks');
  const marks: Mark[] = [];
  for (const [index, mark] of node.marks.entries()) {
    const known = MARKS.find((candidate) => candidate === mark);
    if (known === undefined) {
      throw refuse('unknown_mark', `${path}/marks/${index}`, `Marks are ${MARKS.join(', ')}`);
    }
    if (!marks.includes(known)) marks.push(known);
  }
  return marks.length === 0 ? { type: 'text', text } : { type: 'text', text, marks };
}

function parseInlines(raw: unknown, path: string): Inline[] {
  if (!Array.isArray(raw)) throw refuse('invalid_block', path, 'Expected an array of inline nodes');
  return raw.map((item, index) => {
    const at = `${path}/${index}`;
    const node = asObject(item, at);
    if (node.type !== 'link') return parseText(node, at);
    for (const key of Object.keys(node)) {
      if (!['type', 'href', 'content'].includes(key))
        throw refuse('invalid_block', `${at}/${key}`, `Unknown property "${key}"`);
    }
    const href = string(node.href, `${at}/href`, 2048);
    if (!isLinkHref(href))
      throw refuse('invalid_link', `${at}/href`, 'A link is an absolute http, https or mailto URL');
    if (!Array.isArray(node.content))
      throw refuse('invalid_block', `${at}/content`, 'Expected an array of text nodes');
    return {
      type: 'link',
      href,
      content: node.content.map((text, position) => parseText(text, `${at}/content/${position}`)),
    };
  });
}

function parseBlock(raw: unknown, path: string): Block {
  const node = asObject(raw, path);
  const type = BLOCK_TYPES.find((candidate) => candidate === node.type);
  if (type === undefined)
    throw refuse('unknown_block_type', `${path}/type`, `Block types are ${BLOCK_TYPES.join(', ')}`);
  const allowed = BLOCK_KEYS[type];
  const block: Block = { type };
  for (const [key, value] of Object.entries(node)) {
    const at = `${path}/${key}`;
    if (key === 'type') continue;
    if (key === 'id') {
      block.id = string(value, at, 64);
      continue;
    }
    if (!allowed.includes(key))
      throw refuse('invalid_block', at, `A ${type} block has no "${key}"`);
    if (key === 'indent') {
      if (
        typeof value !== 'number' ||
        !Number.isInteger(value) ||
        value < 0 ||
        value > MAX_INDENT
      ) {
        throw refuse('invalid_indent', at, `indent is an integer from 0 to ${MAX_INDENT}`);
      }
      if (value > 0) block.indent = value;
    } else if (key === 'content') block.content = parseInlines(value, at);
    else if (key === 'caption') block.caption = parseInlines(value, at);
    else if (key === 'checked') {
      if (typeof value !== 'boolean') throw refuse('invalid_block', at, 'Expected true or false');
      block.checked = value;
    } else if (key === 'language') block.language = string(value, at, 40);
    else if (key === 'text') block.text = string(value, at, 1_000_000);
    else if (key === 'icon') block.icon = string(value, at, 16);
    else if (key === 'fileId') {
      if (typeof value !== 'string' || !uuid.test(value))
        throw refuse('invalid_block', at, 'Expected a file id');
      block.fileId = value.toLowerCase();
    }
  }
  if (type === 'image' && block.fileId === undefined)
    throw refuse('invalid_block', `${path}/fileId`, 'An image block needs a fileId');
  return block;
}

/** Checks a block document; image file ids are checked against the workspace by the caller. */
export function parseBlockDocument(raw: unknown): BlockDocument {
  const document = asObject(raw, '/blocks');
  for (const key of Object.keys(document)) {
    if (key !== 'blocks')
      throw refuse('invalid_block', `/blocks/${key}`, 'A block document is {"blocks": [...]}');
  }
  if (!Array.isArray(document.blocks))
    throw refuse('invalid_block', '/blocks/blocks', 'Expected an array of blocks');
  if (document.blocks.length > MAX_BLOCKS) {
    throw refuse('invalid_block', '/blocks/blocks', `A document has at most ${MAX_BLOCKS} blocks`);
  }
  return {
    blocks: document.blocks.map((block, index) => parseBlock(block, `/blocks/blocks/${index}`)),
  };
}

export function imageFileIds(document: BlockDocument): string[] {
  return [
    ...new Set(
      document.blocks.flatMap((block) =>
        block.type === 'image' && block.fileId ? [block.fileId] : [],
      ),
    ),
  ];
}
