import { UUID_PATTERN } from '../../http/schemas.js';
import {
  type Block,
  type BlockDocument,
  type Inline,
  MAX_INDENT,
  type Mark,
  type TextNode,
} from './block-schemas.js';
import { isLinkHref } from './blocks.js';

/**
 * Reads Markdown into a block document: headings (#, ##, ###), bulleted,
 * numbered and to-do lists (two spaces per indent level), quotes, callouts
 * (`> [!callout 💡] text`), fenced code, dividers, images of workspace files
 * (`![caption](file:<id>)`) and paragraphs; inline bold (`**`), italic (`_` or
 * `*`), strikethrough (`~~`), underline (`<u>`), code (`` ` ``) and links.
 */

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const FILE_IMAGE = new RegExp(`^!\\[(.*)\\]\\(file:(${UUID_PATTERN.slice(1, -1)})\\)$`);

function isWordChar(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}]/u.test(char);
}

/** Index of the closing delimiter from `from`, skipping escapes; -1 when absent. */
function findClosing(source: string, delimiter: string, from: number): number {
  for (let index = from; index < source.length; index++) {
    if (source[index] === '\\') {
      index++;
      continue;
    }
    if (!source.startsWith(delimiter, index)) continue;
    if (delimiter === '_' && isWordChar(source[index + 1])) continue;
    if (delimiter === '*' && source[index + 1] === '*') {
      index++;
      continue;
    }
    if (index > from) return index;
  }
  return -1;
}

/** Reverses the encoding `encodeHref` applies to parentheses and spaces. */
function decodeHref(href: string): string {
  return href.replace(/%28/gi, '(').replace(/%29/gi, ')').replace(/%20/g, ' ');
}

function withMark(marks: readonly Mark[], mark: Mark): Mark[] {
  return marks.includes(mark) ? [...marks] : [...marks, mark];
}

const PAIRS: Array<[string, string, Mark]> = [
  ['**', '**', 'bold'],
  ['__', '__', 'bold'],
  ['~~', '~~', 'strikethrough'],
  ['<u>', '</u>', 'underline'],
  ['_', '_', 'italic'],
  ['*', '*', 'italic'],
];

export function parseInlines(source: string, marks: readonly Mark[] = []): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '')
      out.push(
        marks.length > 0
          ? { type: 'text', text: buffer, marks: [...marks] }
          : { type: 'text', text: buffer },
      );
    buffer = '';
  };
  let index = 0;
  scan: while (index < source.length) {
    const char = source.charAt(index);
    if (char === '\\' && PUNCTUATION.test(source.charAt(index + 1))) {
      buffer += source.charAt(index + 1);
      index += 2;
      continue;
    }
    if (char === '`') {
      const run = /^`+/.exec(source.slice(index))?.[0] ?? '`';
      const close = source.indexOf(run, index + run.length);
      if (close > 0) {
        flush();
        let code = source.slice(index + run.length, close);
        if (code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '')
          code = code.slice(1, -1);
        out.push({ type: 'text', text: code, marks: withMark(marks, 'code') });
        index = close + run.length;
        continue;
      }
      buffer += run;
      index += run.length;
      continue;
    }
    for (const [open, closeWith, mark] of PAIRS) {
      if (!source.startsWith(open, index)) continue;
      if (open === '_' && isWordChar(source[index - 1])) break;
      const close = findClosing(source, closeWith, index + open.length);
      if (close < 0) break;
      flush();
      out.push(...parseInlines(source.slice(index + open.length, close), withMark(marks, mark)));
      index = close + closeWith.length;
      continue scan;
    }
    if (char === '[') {
      const link = /^\[((?:\\.|[^\]\\])*)\]\(([^()\s]+)\)/.exec(source.slice(index));
      const href = link?.[2] === undefined ? undefined : decodeHref(link[2]);
      if (link !== null && href !== undefined && isLinkHref(href)) {
        flush();
        const content = parseInlines(link[1] ?? '', marks).flatMap((node): TextNode[] =>
          node.type === 'text' ? [node] : node.content,
        );
        out.push({ type: 'link', href, content });
        index += link[0].length;
        continue;
      }
    }
    buffer += char;
    index++;
  }
  flush();
  return out;
}

function indentLevel(spaces: string): number {
  return Math.min(MAX_INDENT, Math.floor(spaces.replace(/\t/g, '  ').length / 2));
}

/** The block types that take an indent. */
type IndentedBlock<B = Block> = B extends unknown ? ('indent' extends keyof B ? B : never) : never;

function withIndent<B extends IndentedBlock>(block: B, level: number): B {
  return level > 0 ? { ...block, indent: level } : block;
}

export function parseMarkdown(markdown: string): BlockDocument {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let paragraphIndent = 0;
  const endParagraph = () => {
    if (paragraph.length > 0) {
      blocks.push(
        withIndent(
          { type: 'paragraph', content: parseInlines(paragraph.join('\n')) },
          paragraphIndent,
        ),
      );
    }
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = /^(`{3,})\s*([\w+#.-]*)\s*$/.exec(line);
    if (fence?.[1] !== undefined) {
      endParagraph();
      const body: string[] = [];
      index++;
      while (index < lines.length && !(lines[index] ?? '').startsWith(fence[1]))
        body.push(lines[index++] ?? '');
      const code: Block = { type: 'code', text: body.join('\n') };
      blocks.push(fence[2] ? { ...code, language: fence[2] } : code);
      continue;
    }
    if (line.trim() === '') {
      endParagraph();
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endParagraph();
      blocks.push({ type: 'divider' });
      continue;
    }
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    if (heading?.[1] !== undefined) {
      endParagraph();
      const type =
        heading[1].length === 1 ? 'heading1' : heading[1].length === 2 ? 'heading2' : 'heading3';
      blocks.push({ type, content: parseInlines((heading[2] ?? '').replace(/\s+#+\s*$/, '')) });
      continue;
    }
    const image = FILE_IMAGE.exec(line.trim());
    if (image?.[2] !== undefined) {
      endParagraph();
      const caption = parseInlines(image[1] ?? '');
      blocks.push(
        caption.length > 0
          ? { type: 'image', fileId: image[2].toLowerCase(), caption }
          : { type: 'image', fileId: image[2].toLowerCase() },
      );
      continue;
    }
    const callout = /^(\s*)>\s?\[!callout(?:\s+(\S{1,16}))?\]\s?(.*)$/.exec(line);
    if (callout !== null) {
      endParagraph();
      const block: Block = { type: 'callout', content: parseInlines(callout[3] ?? '') };
      blocks.push(
        withIndent(
          callout[2] ? { ...block, icon: callout[2] } : block,
          indentLevel(callout[1] ?? ''),
        ),
      );
      continue;
    }
    const quote = /^(\s*)>\s?(.*)$/.exec(line);
    if (quote !== null) {
      endParagraph();
      const previous = blocks.at(-1);
      const text = quote[2] ?? '';
      const lastLine = lines[index - 1] ?? '';
      if (previous?.type === 'quote' && /^\s*>/.test(lastLine) && !/\[!callout/.test(lastLine)) {
        previous.content = [...(previous.content ?? []), ...parseInlines(`\n${text}`)];
      } else {
        blocks.push(
          withIndent({ type: 'quote', content: parseInlines(text) }, indentLevel(quote[1] ?? '')),
        );
      }
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(?:\[( |x|X)\]\s+)?(.*)$/.exec(line);
    if (item !== null) {
      endParagraph();
      const level = indentLevel(item[1] ?? '');
      const content = parseInlines(item[4] ?? '');
      if (item[3] !== undefined)
        blocks.push(withIndent({ type: 'todo', checked: item[3] !== ' ', content }, level));
      else
        blocks.push(
          withIndent(
            { type: /\d/.test(item[2] ?? '') ? 'numbered_list' : 'bulleted_list', content },
            level,
          ),
        );
      continue;
    }
    if (paragraph.length === 0) paragraphIndent = indentLevel(/^\s*/.exec(line)?.[0] ?? '');
    paragraph.push(line.trimStart());
  }
  endParagraph();
  return { blocks: blocks.map(mergeText) };
}

/** Joins neighbouring text nodes with the same marks (quote lines, escapes). */
function mergeText(block: Block): Block {
  if (!('content' in block) || block.content === undefined) return block;
  const content: Inline[] = [];
  for (const node of block.content) {
    const last = content.at(-1);
    if (
      last?.type === 'text' &&
      node.type === 'text' &&
      (last.marks ?? []).join() === (node.marks ?? []).join()
    ) {
      content[content.length - 1] = { ...last, text: last.text + node.text };
    } else content.push(node);
  }
  return { ...block, content };
}
