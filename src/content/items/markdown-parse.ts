import type {
  Blockquote,
  Definition,
  List,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
} from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString as plainText } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import { UUID_PATTERN } from '../../http/schemas.js';
import {
  type Block,
  type BlockDocument,
  type Inline,
  MARKS,
  MAX_INDENT,
  type Mark,
  type TextNode,
} from './block-schemas.js';
import { isLinkHref } from './blocks.js';

/**
 * Reads Markdown (CommonMark with GitHub's extensions, parsed by mdast) into
 * a block document. Each mdast node maps to the nearest block: headings of
 * depth 3 to 6 are `heading3`; list items are bulleted, numbered or to-do
 * blocks whose `indent` is their nesting; a quote whose text starts with
 * `[!callout icon]` is a callout; a paragraph's workspace image
 * (`![caption](file:<id>)`) is an image block. What has no block (tables,
 * HTML, footnotes) becomes plain text in a paragraph; nothing is refused.
 * Inline: strong, emphasis, GFM strikethrough, `<u>` HTML and code spans are
 * the five marks; links keep an http, https or mailto target, others keep
 * only their text.
 */

const FILE_URL = new RegExp(`^file:(${UUID_PATTERN.slice(1, -1)})$`);
const CALLOUT = /^\[!callout(?: ([^\]\n]{1,16}))?\] ?/;
const LANGUAGE_MAX = 40;

/** Made once: the extensions hold no state, and building them took most of a short parse. */
const extensions = [gfm()];
const mdastExtensions = [gfmFromMarkdown()];

function parse(markdown: string): Root {
  return fromMarkdown(markdown, { extensions, mdastExtensions });
}

function sortedMarks(marks: ReadonlySet<Mark>): Mark[] {
  return MARKS.filter((mark) => marks.has(mark));
}

function textNode(text: string, marks: ReadonlySet<Mark>): TextNode {
  const sorted = sortedMarks(marks);
  return sorted.length === 0 ? { type: 'text', text } : { type: 'text', text, marks: sorted };
}

/** Neighbouring text nodes with the same marks become one. */
function merged(inlines: readonly Inline[]): Inline[] {
  const out: Inline[] = [];
  for (const inline of inlines) {
    const last = out.at(-1);
    if (
      inline.type === 'text' &&
      last?.type === 'text' &&
      (last.marks ?? []).join() === (inline.marks ?? []).join()
    ) {
      out[out.length - 1] = { ...last, text: last.text + inline.text };
    } else if (inline.type === 'link' || inline.text !== '') out.push(inline);
  }
  return out;
}

function isBlank(inlines: readonly Inline[]): boolean {
  return inlines.every((inline) => inline.type === 'text' && inline.text.trim() === '');
}

function withMark(marks: ReadonlySet<Mark>, mark: Mark): Set<Mark> {
  return new Set([...marks, mark]);
}

/** Reads phrasing content; `<u>` and `</u>` may sit in different parents, so their depth is shared. */
class InlineReader {
  #underline = 0;
  constructor(private readonly definitions: ReadonlyMap<string, Definition>) {}

  read(nodes: readonly PhrasingContent[], marks: ReadonlySet<Mark> = new Set()): Inline[] {
    return merged(nodes.flatMap((node) => this.#node(node, marks)));
  }

  #marks(marks: ReadonlySet<Mark>): ReadonlySet<Mark> {
    return this.#underline > 0 ? withMark(marks, 'underline') : marks;
  }

  #texts(nodes: readonly PhrasingContent[], marks: ReadonlySet<Mark>): TextNode[] {
    return this.read(nodes, marks).flatMap((inline) =>
      inline.type === 'text' ? [inline] : inline.content,
    );
  }

  #link(href: string, children: readonly PhrasingContent[], marks: ReadonlySet<Mark>): Inline[] {
    const content = merged(this.#texts(children, marks)).filter((node) => node.type === 'text');
    if (!isLinkHref(href) || content.length === 0) return content;
    return [{ type: 'link', href, content }];
  }

  #node(node: PhrasingContent, marks: ReadonlySet<Mark>): Inline[] {
    switch (node.type) {
      case 'text':
        return [textNode(node.value, this.#marks(marks))];
      case 'emphasis':
        return this.read(node.children, withMark(marks, 'italic'));
      case 'strong':
        return this.read(node.children, withMark(marks, 'bold'));
      case 'delete':
        return this.read(node.children, withMark(marks, 'strikethrough'));
      case 'inlineCode':
        return [textNode(node.value, withMark(this.#marks(marks), 'code'))];
      case 'break':
        return [textNode('\n', this.#marks(marks))];
      case 'link':
        return this.#link(node.url, node.children, marks);
      case 'linkReference': {
        const target = this.definitions.get(node.identifier);
        return target === undefined
          ? this.read(node.children, marks)
          : this.#link(target.url, node.children, marks);
      }
      case 'image':
        return this.#image(node.url, node.alt ?? '', marks);
      case 'imageReference': {
        const target = this.definitions.get(node.identifier);
        return this.#image(target?.url ?? '', node.alt ?? '', marks);
      }
      case 'html':
        return this.#html(node.value, marks);
      case 'footnoteReference':
        return [textNode(`[^${node.label ?? node.identifier}]`, this.#marks(marks))];
    }
  }

  /** An image inside text: a link to it when it may be one, else its text. */
  #image(url: string, alt: string, marks: ReadonlySet<Mark>): Inline[] {
    const text = alt === '' ? url : alt;
    if (text === '') return [];
    const node = textNode(text, this.#marks(marks));
    return isLinkHref(url) ? [{ type: 'link', href: url, content: [node] }] : [node];
  }

  #html(value: string, marks: ReadonlySet<Mark>): Inline[] {
    const tag = value.trim().toLowerCase();
    if (tag === '<u>') this.#underline++;
    else if (tag === '</u>') this.#underline = Math.max(0, this.#underline - 1);
    else if (/^<br\s*\/?>$/.test(tag)) return [textNode('\n', this.#marks(marks))];
    else return [textNode(value, this.#marks(marks))];
    return [];
  }
}

type BlockContent = RootContent;

/** Maps mdast's block nodes to blocks; `level` is the list nesting, the blocks' indent. */
class BlockReader {
  readonly blocks: Block[] = [];
  readonly #inlines: InlineReader;

  constructor(definitions: ReadonlyMap<string, Definition>) {
    this.#inlines = new InlineReader(definitions);
  }

  #indent(level: number): { indent?: number } {
    const indent = Math.min(level, MAX_INDENT);
    return indent === 0 ? {} : { indent };
  }

  read(nodes: readonly BlockContent[], level: number): void {
    for (const node of nodes) this.#node(node, level);
  }

  #node(node: BlockContent, level: number): void {
    switch (node.type) {
      case 'paragraph':
        this.#paragraph(node, level);
        return;
      case 'heading': {
        const type = node.depth === 1 ? 'heading1' : node.depth === 2 ? 'heading2' : 'heading3';
        this.blocks.push({ type, content: this.#inlines.read(node.children) });
        return;
      }
      case 'thematicBreak':
        this.blocks.push({ type: 'divider' });
        return;
      case 'code': {
        const language = node.lang?.slice(0, LANGUAGE_MAX);
        this.blocks.push({ type: 'code', text: node.value, ...(language ? { language } : {}) });
        return;
      }
      case 'blockquote':
        this.#quote(node, level);
        return;
      case 'list':
        this.#list(node, level);
        return;
      case 'html':
        this.#text(node.value, level);
        return;
      case 'table':
        for (const row of node.children) {
          const cells = row.children.map((cell) => this.#inlines.read(cell.children));
          const content = cells.flatMap((cell, index) =>
            index === 0 ? cell : [{ type: 'text' as const, text: ' | ' }, ...cell],
          );
          this.blocks.push({ type: 'paragraph', content: merged(content), ...this.#indent(level) });
        }
        return;
      case 'footnoteDefinition': {
        const first = this.blocks.length;
        this.read(node.children, level);
        const label = { type: 'text' as const, text: `[^${node.label ?? node.identifier}]: ` };
        const head = this.blocks[first];
        if (head !== undefined && 'content' in head)
          head.content = merged([label, ...(head.content ?? [])]);
        else this.blocks.splice(first, 0, { type: 'paragraph', content: [label] });
        return;
      }
      case 'definition':
        // Its target is carried by the links that cite it.
        return;
      default:
        // Phrasing content where a block was expected, or a node kind no reader adds: its text.
        this.#text(plainText(node), level);
    }
  }

  #text(text: string, level: number): void {
    if (text.trim() === '') return;
    this.blocks.push({
      type: 'paragraph',
      content: [{ type: 'text', text }],
      ...this.#indent(level),
    });
  }

  /** A paragraph; a workspace image in it becomes an image block, the text around it paragraphs. */
  #paragraph(node: Paragraph, level: number): void {
    let run: PhrasingContent[] = [];
    const flush = () => {
      const content = this.#inlines.read(run);
      if (!isBlank(content) || run.length === 0)
        this.blocks.push({ type: 'paragraph', content, ...this.#indent(level) });
      run = [];
    };
    let split = false;
    for (const child of node.children) {
      const file = child.type === 'image' ? FILE_URL.exec(child.url)?.[1] : undefined;
      if (child.type !== 'image' || file === undefined) {
        run.push(child);
        continue;
      }
      if (run.length > 0) flush();
      split = true;
      const alt = child.alt ?? '';
      this.blocks.push({
        type: 'image',
        fileId: file.toLowerCase(),
        ...(alt === '' ? {} : { caption: [{ type: 'text', text: alt }] }),
      });
    }
    if (run.length > 0 || !split) flush();
  }

  /**
   * A quote's paragraphs make one quote block (or a callout), joined by a
   * blank line; its other blocks follow as blocks of their own.
   */
  #quote(node: Blockquote, level: number): void {
    const texts: Inline[][] = [];
    const rest: BlockContent[] = [];
    for (const child of node.children) {
      if (rest.length === 0 && (child.type === 'paragraph' || child.type === 'heading'))
        texts.push(this.#inlines.read(child.children));
      else rest.push(child);
    }
    if (texts.length > 0 || rest.length === 0) {
      const content = merged(
        texts.flatMap((inlines, index) =>
          index === 0 ? inlines : [{ type: 'text' as const, text: '\n\n' }, ...inlines],
        ),
      );
      this.blocks.push(this.#quoteBlock(content, level));
    }
    this.read(rest, level);
  }

  #quoteBlock(content: Inline[], level: number): Block {
    const first = content[0];
    const callout =
      first?.type === 'text' && first.marks === undefined ? CALLOUT.exec(first.text) : null;
    if (first?.type !== 'text' || callout === null)
      return { type: 'quote', content, ...this.#indent(level) };
    const text = first.text.slice(callout[0].length);
    return {
      type: 'callout',
      ...(callout[1] === undefined ? {} : { icon: callout[1] }),
      content: text === '' ? content.slice(1) : [{ ...first, text }, ...content.slice(1)],
      ...this.#indent(level),
    };
  }

  /** Each item is a block at `level`; what it holds past its first paragraph is nested one deeper. */
  #list(node: List, level: number): void {
    for (const item of node.children) {
      const [first, ...rest] = item.children;
      const lead = first?.type === 'paragraph' ? first : undefined;
      const content = lead === undefined ? [] : this.#inlines.read(lead.children);
      const indent = this.#indent(level);
      if (typeof item.checked === 'boolean')
        this.blocks.push({ type: 'todo', checked: item.checked, content, ...indent });
      else
        this.blocks.push({
          type: node.ordered ? 'numbered_list' : 'bulleted_list',
          content,
          ...indent,
        });
      this.read(lead === undefined ? item.children : rest, level + 1);
    }
  }
}

function definitionsOf(tree: Root): Map<string, Definition> {
  const found = new Map<string, Definition>();
  const visit = (node: Nodes) => {
    if (node.type === 'definition' && !found.has(node.identifier)) found.set(node.identifier, node);
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return found;
}

export function parseMarkdown(markdown: string): BlockDocument {
  const tree = parse(markdown);
  const reader = new BlockReader(definitionsOf(tree));
  reader.read(tree.children, 0);
  return { blocks: reader.blocks };
}
